import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CredentialsCipher, CredentialsCipherError, parseCredentialsKey } from './credentials-cipher';

describe('CredentialsCipher (AES-256-GCM)', () => {
  const key = randomBytes(32);
  const cipher = new CredentialsCipher(key);

  it('round-trips, never shows the clear text, and uses a fresh IV each time', () => {
    const stored = cipher.encryptJson({ private_app_token: 'pat-na1-secret' }, 'crm-connection:org_1:crm_1');
    expect(stored.startsWith('v1:')).toBe(true);
    expect(stored).not.toContain('pat-na1-secret');
    expect(cipher.encryptJson({ private_app_token: 'pat-na1-secret' }, 'crm-connection:org_1:crm_1')).not.toBe(stored);
    expect(cipher.decryptJson(stored, 'crm-connection:org_1:crm_1')).toEqual({ private_app_token: 'pat-na1-secret' });
  });

  it('refuses another context, another key and an altered value', () => {
    const stored = cipher.encrypt('secret', 'crm-connection:org_1:crm_1');
    expect(() => cipher.decrypt(stored, 'crm-connection:org_2:crm_1')).toThrow(CredentialsCipherError);
    expect(() => new CredentialsCipher(randomBytes(32)).decrypt(stored, 'crm-connection:org_1:crm_1')).toThrow(
      CredentialsCipherError,
    );
    // One character of the sealed bytes changed for another, away from the end (whose last
    // base64 character may carry only padding bits). Picking by the character at that place, not
    // another one, so the "change" is never the same character.
    const at = stored.length - 8;
    const altered = `${stored.slice(0, at)}${stored[at] === 'A' ? 'B' : 'A'}${stored.slice(at + 1)}`;
    expect(() => cipher.decrypt(altered, 'crm-connection:org_1:crm_1')).toThrow(CredentialsCipherError);
  });

  it('takes a key as 64 hex digits or base64 of 32 bytes', () => {
    expect(parseCredentialsKey(key.toString('hex'))).toEqual(key);
    expect(parseCredentialsKey(key.toString('base64'))).toEqual(key);
    expect(parseCredentialsKey(key.toString('base64url'))).toEqual(key);
    expect(() => parseCredentialsKey('short')).toThrow('must be 32 bytes');
  });
});
