/** Whether a stored key may be used now, and for what (revoked, disabled or expired, permission; codes in docs/api-conventions.md "Errors"). */
import { DomainError } from '../errors';
import type { ApiKey, ApiKeyPermission } from './api-key';

/**
 * Null when the key is usable at `now`, otherwise the error to answer with. Revocation wins over
 * everything else so a vendor learns the key was revoked (API_KEY_REVOKED) rather than "invalid".
 * A disabled key and a rotated key past its 24-hour overlap are both "invalid" (API_KEY_INVALID).
 */
export function checkKeyUsable(key: ApiKey, now: Date): DomainError | null {
  if (key.revoked_at !== null && key.revoked_at.getTime() <= now.getTime()) {
    return new DomainError('API_KEY_REVOKED', 'API key has been revoked');
  }
  if (!key.enabled) return new DomainError('API_KEY_INVALID', 'API key is disabled');
  if (key.expires_at !== null && key.expires_at.getTime() <= now.getTime()) {
    return new DomainError('API_KEY_INVALID', 'API key has expired');
  }
  return null;
}

/** Throws INSUFFICIENT_PERMISSIONS (403) when the key lacks the permission. */
export function requirePermission(key: Pick<ApiKey, 'permissions'>, permission: ApiKeyPermission): void {
  if (!key.permissions.includes(permission)) {
    throw new DomainError('INSUFFICIENT_PERMISSIONS', `API key lacks the '${permission}' permission`);
  }
}

/** Normalises a permission list given at creation: known names only, no repeats, not empty. */
export function parsePermissions(values: readonly string[]): ApiKeyPermission[] {
  const unknown = values.filter((value) => value !== 'read' && value !== 'write');
  if (unknown.length > 0 || values.length === 0) {
    throw new DomainError('VALIDATION_ERROR', 'Invalid permissions', [
      {
        field: 'permissions',
        message: values.length === 0 ? 'at least one of read, write' : `unknown: ${unknown.join(', ')}`,
      },
    ]);
  }
  return [...new Set(values as ApiKeyPermission[])].sort();
}
