/**
 * Roles and permissions of the user API (five roles, docs/permissions.md): the one matrix.
 * `docs/permissions.md` shows the same table; a spec test keeps the two equal.
 *
 * Permission names follow the OAuth scopes (`OAUTH_SCOPES`) where they exist (leads:read,
 * vendors:write, organization:read, ...); the others use the same `<resource>:<read|write>` shape.
 */

export const ROLES = ['owner', 'admin', 'manager', 'viewer', 'vendor'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'leads:read',
  'leads:write',
  /** POST /api/leads/:id/erase (docs/consent.md): owner and admin. */
  'leads:erase',
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
  'suppression:read',
  'suppression:write',
  'caps:read',
  'caps:write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ALL: readonly Permission[] = PERMISSIONS;

/**
 * - owner: everything (spec: full access, billing, delete organization).
 * - admin: everything but deleting the organization.
 * - manager: view and edit leads, configure rules (enrichment, dedup); reads what that work needs.
 * - viewer: read-only on leads and analytics, and the organization's name and settings.
 * - vendor: submits leads through API keys only, so nothing in the user API.
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: ALL,
  admin: ALL.filter((permission) => permission !== 'organization:delete'),
  manager: [
    'leads:read',
    'leads:write',
    'vendors:read',
    'users:read',
    'organization:read',
    'analytics:read',
    'rules:read',
    'rules:write',
    'webhooks:read',
    'dedup:read',
    'dedup:write',
    'suppression:read',
    'caps:read',
  ],
  viewer: ['leads:read', 'organization:read', 'analytics:read', 'suppression:read', 'caps:read'],
  vendor: [],
};

export function hasPermission(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Higher ranks hold every permission of lower ranks (vendor is outside the ladder, lowest). */
export const ROLE_RANK: Readonly<Record<Role, number>> = { owner: 4, admin: 3, manager: 2, viewer: 1, vendor: 0 };

/**
 * Whether `actor` may give `target` the role `role` (creating, inviting or changing a user).
 * Rules (docs/decisions.md): nobody grants a role above their own; only an owner grants or takes
 * away the owner role, so admins can neither make nor demote owners.
 */
export function canAssignRole(actor: Role, role: Role, currentRoleOfTarget?: Role): boolean {
  if (ROLE_RANK[role] > ROLE_RANK[actor]) return false;
  if ((role === 'owner' || currentRoleOfTarget === 'owner') && actor !== 'owner') return false;
  return true;
}

/** Whether `actor` may change or delete a user whose role is `target` at all. */
export function canManageUser(actor: Role, target: Role): boolean {
  if (target === 'owner') return actor === 'owner';
  return ROLE_RANK[target] <= ROLE_RANK[actor];
}

/** The matrix as a Markdown table (docs/permissions.md is this output). */
export function permissionMatrixMarkdown(): string {
  const header = `| permission | ${ROLES.join(' | ')} |`;
  const rule = `|---|${ROLES.map(() => ':-:').join('|')}|`;
  const rows = PERMISSIONS.map(
    (permission) =>
      `| \`${permission}\` | ${ROLES.map((role) => (hasPermission(role, permission) ? '✓' : '')).join(' | ')} |`,
  );
  return [header, rule, ...rows].join('\n');
}
