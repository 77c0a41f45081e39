/** POST /api/webhooks: a new webhook with a new signing secret, stored encrypted. */
import type { WebhookRepository } from '@leadstream/dal';
import { newWebhookSecret, parseWebhookCreate, type TenantContext, type Webhook } from '@leadstream/domain';
import { sealWebhookSecret, type CredentialsCipher } from '@leadstream/runtime';
import { checkReachable, invalidWebhook, newId, type WebhookTargetOptions } from './webhook-access';

export interface CreateWebhookDeps {
  webhooks: Pick<WebhookRepository, 'create'>;
  cipher: CredentialsCipher;
  outbound: WebhookTargetOptions;
  clock: () => Date;
}

export interface CreateWebhookInput {
  tenant: TenantContext;
  body: unknown;
}

export interface CreateWebhookResult {
  webhook: Webhook;
  /** The secret in full: this is the only time it is shown. */
  secret: string;
}

export async function createWebhook(deps: CreateWebhookDeps, input: CreateWebhookInput): Promise<CreateWebhookResult> {
  const parsed = parseWebhookCreate(input.body, deps.outbound);
  if (!parsed.ok) throw invalidWebhook(parsed.details);
  await checkReachable(deps.outbound, parsed.value.url);
  const at = deps.clock().toISOString();
  const webhookId = newId('webhook');
  const organizationId = input.tenant.organizationId;
  const secret = newWebhookSecret();
  const webhook: Webhook = {
    id: webhookId,
    organization_id: organizationId,
    environment: parsed.value.sandbox ? 'sandbox' : 'live',
    url: parsed.value.url,
    events: parsed.value.events,
    enabled: parsed.value.enabled,
    description: parsed.value.description,
    secret: sealWebhookSecret(deps.cipher, { id: webhookId, organization_id: organizationId }, secret),
    created_at: at,
    updated_at: at,
    disabled_at: null,
    disabled_reason: null,
    failure_streak_since: at,
  };
  await deps.webhooks.create(webhook);
  return { webhook, secret };
}
