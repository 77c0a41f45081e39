/**
 * Which buttons a user sees: the permission matrix of the service itself
 * (libs/domain/src/accounts/permissions.ts, imported through its own entry point
 * `@leadstream/domain/permissions`, which has no imports, so nothing of the server is bundled).
 * The service still enforces every permission at the route.
 */
import { PERMISSIONS, ROLE_PERMISSIONS, ROLES, type Permission, type Role } from '@leadstream/domain/permissions';
import { currentEnvironment } from './environment';

export { PERMISSIONS, ROLE_PERMISSIONS, ROLES, type Permission, type Role };

/**
 * Whether the role may do it here. In the sandbox (the environment switch, ./environment.ts) leads
 * are read-only, since the user API changes live leads only: no lead write button shows there.
 */
export function can(role: Role | undefined, permission: Permission): boolean {
  if (permission === 'leads:write' && currentEnvironment() === 'sandbox') return false;
  return role !== undefined && ROLE_PERMISSIONS[role].includes(permission);
}
