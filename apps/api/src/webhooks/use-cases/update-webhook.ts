/** PATCH /api/webhooks/:id: a partial update; a new URL is checked like a new webhook's. */
import type { WebhookRepository } from '@leadstream/dal';
import { parseWebhookPatch, type TenantContext, type Webhook } from '@leadstream/domain';
import {
  checkReachable,
  findWebhook,
  invalidWebhook,
  tenantOfWebhook,
  webhookNotFound,
  type WebhookTargetOptions,
} from './webhook-access';

export interface UpdateWebhookDeps {
  webhooks: Pick<WebhookRepository, 'find' | 'update'>;
  outbound: WebhookTargetOptions;
  clock: () => Date;
}

export interface UpdateWebhookInput {
  tenant: TenantContext;
  webhookId: string;
  body: unknown;
}

export async function updateWebhook(deps: UpdateWebhookDeps, input: UpdateWebhookInput): Promise<Webhook> {
  const current = await findWebhook(deps, input.tenant, input.webhookId);
  const parsed = parseWebhookPatch(input.body, deps.outbound);
  if (!parsed.ok) throw invalidWebhook(parsed.details);
  if (parsed.value.url !== undefined) await checkReachable(deps.outbound, parsed.value.url);
  const updated = await deps.webhooks.update(
    tenantOfWebhook(current),
    current.id,
    parsed.value,
    deps.clock().toISOString(),
  );
  if (!updated) throw webhookNotFound();
  return updated;
}
