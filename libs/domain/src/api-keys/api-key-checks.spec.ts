import { describe, expect, it } from 'vitest';
import type { ApiKey } from './api-key';
import { checkKeyUsable, parsePermissions, requirePermission } from './api-key-checks';

const now = new Date('2025-01-01T12:00:00.000Z');

function key(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 'key_1',
    organization_id: 'org_1',
    vendor_id: 'vendor-1',
    environment: 'live',
    name: 'test',
    key_hash: 'h',
    key_preview: 'vk_live_abcd…wxyz',
    permissions: ['write'],
    ip_restrictions: [],
    rate_limit: null,
    enabled: true,
    revoked_at: null,
    expires_at: null,
    created_at: now,
    last_used_at: null,
    ...overrides,
  };
}

describe('checkKeyUsable', () => {
  it('accepts an enabled key, and a rotated key until its expiry', () => {
    expect(checkKeyUsable(key(), now)).toBeNull();
    expect(checkKeyUsable(key({ expires_at: new Date(now.getTime() + 1) }), now)).toBeNull();
  });

  it('rejects a revoked key with API_KEY_REVOKED, even when also disabled', () => {
    expect(checkKeyUsable(key({ revoked_at: now }), now)?.code).toBe('API_KEY_REVOKED');
    expect(checkKeyUsable(key({ revoked_at: now, enabled: false }), now)?.code).toBe('API_KEY_REVOKED');
  });

  it('rejects a disabled or expired key with API_KEY_INVALID', () => {
    expect(checkKeyUsable(key({ enabled: false }), now)?.code).toBe('API_KEY_INVALID');
    expect(checkKeyUsable(key({ expires_at: now }), now)?.code).toBe('API_KEY_INVALID');
  });
});

describe('permissions', () => {
  it('requirePermission throws INSUFFICIENT_PERMISSIONS for a missing permission only', () => {
    expect(() => requirePermission({ permissions: ['read', 'write'] }, 'write')).not.toThrow();
    expect(() => requirePermission({ permissions: ['read'] }, 'write')).toThrow(
      expect.objectContaining({ code: 'INSUFFICIENT_PERMISSIONS' }),
    );
  });

  it('parsePermissions keeps known names once and refuses unknown or none', () => {
    expect(parsePermissions(['write', 'read', 'write'])).toEqual(['read', 'write']);
    expect(() => parsePermissions(['admin'])).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(() => parsePermissions([])).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });
});
