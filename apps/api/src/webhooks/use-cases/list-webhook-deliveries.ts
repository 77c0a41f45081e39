/** GET /api/webhooks/:id/deliveries: one page of the webhook's delivery log. */
import type { WebhookDeliveryRepository, WebhookRepository } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';
import { findWebhook, tenantOfWebhook } from './webhook-access';

export interface ListWebhookDeliveriesDeps {
  webhooks: Pick<WebhookRepository, 'find'>;
  deliveries: Pick<WebhookDeliveryRepository, 'list'>;
}

export interface ListWebhookDeliveriesInput {
  tenant: TenantContext;
  webhookId: string;
  page: number;
  limit: number;
}

export async function listWebhookDeliveries(
  deps: ListWebhookDeliveriesDeps,
  input: ListWebhookDeliveriesInput,
): ReturnType<WebhookDeliveryRepository['list']> {
  const webhook = await findWebhook(deps, input.tenant, input.webhookId);
  return deps.deliveries.list(tenantOfWebhook(webhook), webhook.id, input.page, input.limit);
}
