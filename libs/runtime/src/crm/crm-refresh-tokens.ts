/**
 * Stored Salesforce refresh tokens, for every process (CrmClient's `refreshTokens`). A rotated
 * refresh token replaces the stored one inside the connection's encrypted credentials, written
 * only if the stored credentials are still the ones read and hold the refresh token that was
 * sent: two processes that refresh at once, or a rotation racing a PATCH of new credentials,
 * never replace a newer token with an older one. Neither `updated_at` (the connection's version
 * for PATCH and the token cache) nor anything else of the connection changes.
 *
 * (On FerretDB a conditional write is not atomic, docs/store.md: run one crm-sync process per
 * connection there, as for every compare-and-set.)
 */
import type {
  CrmConnection,
  CrmConnectionRecord,
  CrmCredentials,
  SalesforceCredentials,
  TenantContext,
} from '@leadstream/domain';
import { crmCredentialsContext, type CredentialsCipher } from './credentials-cipher';
import type { CrmConnectionRef, CrmRefreshTokenStore } from './crm-client';

/** What of the connection repository (libs/dal CrmConnectionRepository) the store uses. */
export interface CrmCredentialRecords {
  findById(tenant: TenantContext, id: string): Promise<CrmConnectionRecord | null>;
  /** Replaces the credentials' ciphertext if it is still `readCiphertext`; false when it changed or the connection is gone. */
  replaceCredentials(tenant: TenantContext, id: string, readCiphertext: string, ciphertext: string): Promise<boolean>;
}

export class StoredRefreshTokens implements CrmRefreshTokenStore {
  constructor(
    private readonly records: CrmCredentialRecords,
    private readonly cipher: CredentialsCipher,
  ) {}

  private async read(
    ref: CrmConnectionRef,
  ): Promise<{ record: CrmConnectionRecord; credentials: SalesforceCredentials } | null> {
    const record = await this.records.findById(ref.tenant, ref.id);
    if (!record || record.type !== 'salesforce') return null;
    return {
      record,
      credentials: this.cipher.decryptJson<SalesforceCredentials>(
        record.credentials_encrypted,
        crmCredentialsContext(record.organization_id, record._id),
      ),
    };
  }

  async current(ref: CrmConnectionRef): Promise<string | null> {
    return (await this.read(ref))?.credentials.refresh_token ?? null;
  }

  async rotate(ref: CrmConnectionRef, previous: string, next: string): Promise<boolean> {
    const stored = await this.read(ref);
    if (!stored || stored.credentials.refresh_token !== previous) return false;
    const ciphertext = this.cipher.encryptJson(
      { ...stored.credentials, refresh_token: next },
      crmCredentialsContext(stored.record.organization_id, stored.record._id),
    );
    return this.records.replaceCredentials(ref.tenant, ref.id, stored.record.credentials_encrypted, ciphertext);
  }
}

/**
 * The stored connection with its credentials decrypted, as the connectors use it (throws
 * CredentialsCipherError when they do not decrypt with the configured key).
 */
export function openCrmConnection(record: CrmConnectionRecord, cipher: CredentialsCipher): CrmConnection {
  const credentials = cipher.decryptJson<CrmCredentials>(
    record.credentials_encrypted,
    crmCredentialsContext(record.organization_id, record._id),
  );
  return {
    id: record._id,
    name: record.name,
    type: record.type,
    enabled: record.enabled,
    settings: JSON.parse(record.settings_json) as unknown,
    credentials,
    updated_at: record.updated_at,
    tenant: { organizationId: record.organization_id, environment: record.environment },
  } as CrmConnection;
}
