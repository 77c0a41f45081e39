/**
 * Which buttons a user sees: the permission matrix of libs/domain/src/accounts/permissions.ts,
 * copied because the console imports only the API client (README.md "Layout"). The service still
 * enforces every permission at the route; apps/leadstream/src/console-permissions.spec.ts keeps
 * this copy equal to the domain's table.
 */
import { currentEnvironment } from './environment';

export const ROLES = ['owner', 'admin', 'manager', 'viewer', 'vendor'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'leads:read',
  'leads:write',
  'vendors:read',
  'vendors:write',
  'users:read',
  'users:write',
  'organization:read',
  'organization:write',
  'organization:delete',
  'api_keys:read',
  'api_keys:write',
  'analytics:read',
  'rules:read',
  'rules:write',
  'webhooks:read',
  'webhooks:write',
  'dedup:read',
  'dedup:write',
  'oauth_clients:read',
  'oauth_clients:write',
  'crm:read',
  'crm:write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS.filter((permission) => permission !== 'organization:delete'),
  manager: ['leads:read', 'leads:write', 'vendors:read', 'users:read', 'organization:read', 'analytics:read', 'rules:read', 'rules:write', 'webhooks:read', 'dedup:read', 'dedup:write'],
  viewer: ['leads:read', 'organization:read', 'analytics:read'],
  vendor: [],
};

/**
 * Whether the role may do it here. In the sandbox (the environment switch, ./environment.ts) leads
 * are read-only, since the user API changes live leads only: no lead write button shows there.
 */
export function can(role: Role | undefined, permission: Permission): boolean {
  if (permission === 'leads:write' && currentEnvironment() === 'sandbox') return false;
  return role !== undefined && ROLE_PERMISSIONS[role].includes(permission);
}
