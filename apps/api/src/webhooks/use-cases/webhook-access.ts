/** What the webhook use cases share: finding a webhook in either environment, its secret, its URL check. */
import { randomUUID } from 'node:crypto';
import type { WebhookRepository } from '@leadstream/dal';
import { DomainError, type ErrorDetail, type TenantContext, type Webhook } from '@leadstream/domain';
import {
  checkTarget,
  CredentialsCipherError,
  openWebhookSecret,
  type CredentialsCipher,
  type OutboundOptions,
} from '@leadstream/runtime';

/** How outbound targets are checked: WEBHOOK_ALLOW_INSECURE_TARGETS and the name resolution (tests pass their own). */
export type WebhookTargetOptions = { allowInsecureTargets: boolean } & Pick<OutboundOptions, 'resolve'>;

export const webhookNotFound = (): DomainError => new DomainError('NOT_FOUND', 'Webhook not found');
export const invalidWebhook = (details: ErrorDetail[]): DomainError =>
  new DomainError('VALIDATION_ERROR', 'Invalid webhook', details);

export const newId = (prefix: string): string => `${prefix}_${randomUUID().replace(/-/g, '')}`;

/** Both environments of the user's organization: a webhook's environment is the events it receives. */
export function tenantsOf(tenant: TenantContext): TenantContext[] {
  return [
    { organizationId: tenant.organizationId, environment: 'live' },
    { organizationId: tenant.organizationId, environment: 'sandbox' },
  ];
}

export const tenantOfWebhook = (webhook: Webhook): TenantContext => ({
  organizationId: webhook.organization_id,
  environment: webhook.environment,
});

export async function findWebhook(
  deps: { webhooks: Pick<WebhookRepository, 'find'> },
  tenant: TenantContext,
  webhookId: string,
): Promise<Webhook> {
  for (const candidate of tenantsOf(tenant)) {
    const webhook = await deps.webhooks.find(candidate, webhookId);
    if (webhook) return webhook;
  }
  throw webhookNotFound();
}

/** The URL must resolve to public addresses (a webhook must be publicly reachable). */
export async function checkReachable(outbound: WebhookTargetOptions, url: string): Promise<void> {
  const checked = await checkTarget(url, outbound);
  if (!checked.ok) throw invalidWebhook([{ field: 'url', message: `url ${checked.error}` }]);
}

/** The secret to sign with, or null when it does not decrypt with this process's key. */
export function readableSecret(cipher: CredentialsCipher, webhook: Webhook): string | null {
  try {
    return openWebhookSecret(cipher, webhook);
  } catch (error) {
    if (error instanceof CredentialsCipherError) return null;
    throw error;
  }
}
