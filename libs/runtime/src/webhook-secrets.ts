/**
 * Webhook signing secrets at rest: encrypted as CRM connection credentials are (AES-256-GCM with
 * the CredentialsCipher's key: CRM_CREDENTIALS_KEY, or the one kept in DATA_DIR), bound to the
 * webhook's organization and id, so a stored value copied onto another webhook does not decrypt.
 * A webhook saved before secrets were encrypted holds its plain `whsec_…`, which is read as it is.
 */
import { WEBHOOK_SECRET_PREFIX, type Webhook } from '@leadstream/domain';
import type { CredentialsCipher } from './crm/credentials-cipher';

/** The additional data a webhook's secret is bound to. */
export function webhookSecretContext(organizationId: string, webhookId: string): string {
  return `webhook-secret:${organizationId}:${webhookId}`;
}

/** The stored form of a webhook's secret. */
export function sealWebhookSecret(
  cipher: CredentialsCipher,
  webhook: Pick<Webhook, 'id' | 'organization_id'>,
  secret: string,
): string {
  return cipher.encrypt(secret, webhookSecretContext(webhook.organization_id, webhook.id));
}

/**
 * The secret to sign with, from either stored form. Throws CredentialsCipherError when it was
 * encrypted with another key (CRM_CREDENTIALS_KEY changed) or altered.
 */
export function openWebhookSecret(
  cipher: CredentialsCipher,
  webhook: Pick<Webhook, 'id' | 'organization_id' | 'secret'>,
): string {
  if (webhook.secret.startsWith(WEBHOOK_SECRET_PREFIX)) return webhook.secret;
  return cipher.decrypt(webhook.secret, webhookSecretContext(webhook.organization_id, webhook.id));
}
