import { randomBytes } from 'node:crypto';
import { newWebhookSecret } from '@leadstream/domain';
import { describe, expect, it } from 'vitest';
import { CredentialsCipher, CredentialsCipherError } from './crm/credentials-cipher';
import { openWebhookSecret, sealWebhookSecret } from './webhook-secrets';

describe('webhook secrets at rest', () => {
  const cipher = new CredentialsCipher(randomBytes(32));
  const webhook = { id: 'wh_1', organization_id: 'org_1' };

  it('stores no part of the secret and opens it again', () => {
    const secret = newWebhookSecret();
    const stored = sealWebhookSecret(cipher, webhook, secret);
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain('whsec_');
    expect(stored).not.toContain(secret.slice('whsec_'.length, -4));
    expect(openWebhookSecret(cipher, { ...webhook, secret: stored })).toBe(secret);
  });

  it('reads a secret stored in plaintext before secrets were encrypted as it is', () => {
    expect(openWebhookSecret(cipher, { ...webhook, secret: 'whsec_saved_before' })).toBe('whsec_saved_before');
  });

  it('refuses a stored secret moved onto another webhook or organization, or read with another key', () => {
    const stored = sealWebhookSecret(cipher, webhook, newWebhookSecret());
    expect(() => openWebhookSecret(cipher, { id: 'wh_2', organization_id: 'org_1', secret: stored })).toThrow(
      CredentialsCipherError,
    );
    expect(() => openWebhookSecret(cipher, { id: 'wh_1', organization_id: 'org_2', secret: stored })).toThrow(
      CredentialsCipherError,
    );
    expect(() => openWebhookSecret(new CredentialsCipher(randomBytes(32)), { ...webhook, secret: stored })).toThrow(
      CredentialsCipherError,
    );
  });
});
