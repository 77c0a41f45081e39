export * from './oauth.context';
export * from './oauth.app';
export * from './oauth-clients.routes';
export * from './oauth-authorize.routes';
export * from './oauth-token.routes';
