export * from './permissions';
export * from './password';
export * from './user';
export * from './login-limits';
export * from './account-requests';
export * from './organization-patch';
export * from './oauth';
export { BLANK, LEAD_NAME_FIELDS, stripBidiControls, trimBlank, withoutBidiControls } from './input';
