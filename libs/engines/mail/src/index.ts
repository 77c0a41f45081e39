export * from './smtp-mailer';
export * from './outbox-mailer';
export * from './create-mailer';
