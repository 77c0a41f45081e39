/** DELETE /api/webhooks/:id: the webhook and its delivery log. */
import type { WebhookDeliveryRepository, WebhookRepository } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';
import { findWebhook, tenantOfWebhook, webhookNotFound } from './webhook-access';

export interface DeleteWebhookDeps {
  webhooks: Pick<WebhookRepository, 'find' | 'delete'>;
  deliveries: Pick<WebhookDeliveryRepository, 'deleteForWebhook'>;
}

export interface DeleteWebhookInput {
  tenant: TenantContext;
  webhookId: string;
}

export async function deleteWebhook(deps: DeleteWebhookDeps, input: DeleteWebhookInput): Promise<void> {
  const current = await findWebhook(deps, input.tenant, input.webhookId);
  if (!(await deps.webhooks.delete(tenantOfWebhook(current), current.id))) throw webhookNotFound();
  // Deliveries still waiting find no webhook and stop; the log goes with the webhook.
  await deps.deliveries.deleteForWebhook(tenantOfWebhook(current), current.id);
}
