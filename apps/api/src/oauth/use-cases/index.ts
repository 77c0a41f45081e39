export * from './check-authorization-request';
export * from './find-consent-session';
export * from './sign-in-for-consent';
export * from './authorize-oauth-client';
