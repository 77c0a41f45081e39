/**
 * Encryption at rest of CRM connection credentials: AES-256-GCM with a 32-byte key from
 * configuration (CRM_CREDENTIALS_KEY, or the key the embedded setup keeps in DATA_DIR). Each
 * value has its own random 96-bit IV; the connection's id and organization are bound in as
 * additional data, so a ciphertext copied onto another connection does not decrypt.
 *
 * Stored form: `v1:<base64url(iv | tag | ciphertext)>`.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class CredentialsCipherError extends Error {
  readonly code = 'CREDENTIALS_UNREADABLE' as const;
  constructor(message: string) {
    super(message);
    this.name = 'CredentialsCipherError';
  }
}

/** A key from its text form: 64 hex digits or base64/base64url of 32 bytes; throws naming the problem. */
export function parseCredentialsKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== 32) throw new Error(`must be 32 bytes as 64 hex digits or base64 (got ${key.length} bytes)`);
  return key;
}

export class CredentialsCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
  }

  encrypt(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
  }

  /** Throws CredentialsCipherError for a value made with another key, for another context, or altered. */
  decrypt(stored: string, context: string): string {
    const [version, payload] = stored.split(':', 2);
    if (version !== VERSION || !payload) throw new CredentialsCipherError('unknown credentials format');
    const bytes = Buffer.from(payload, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new CredentialsCipherError('credentials ciphertext is too short');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new CredentialsCipherError(
        'credentials do not decrypt with the configured key (CRM_CREDENTIALS_KEY changed?)',
      );
    }
  }

  encryptJson(value: unknown, context: string): string {
    return this.encrypt(JSON.stringify(value), context);
  }

  decryptJson<T>(stored: string, context: string): T {
    return JSON.parse(this.decrypt(stored, context)) as T;
  }
}

/** The additional data a connection's credentials are bound to. */
export function crmCredentialsContext(organizationId: string, connectionId: string): string {
  return `crm-connection:${organizationId}:${connectionId}`;
}
