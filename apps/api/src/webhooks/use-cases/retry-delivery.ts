/**
 * POST /api/webhooks/:id/deliveries/:delivery_id/retry: asks the deliver stage to send a delivery
 * again (a `resend` message on the deliveries topic); the attempt itself is the stage's.
 */
import type { WebhookDeliveryRepository, WebhookRepository } from '@leadstream/dal';
import { DomainError, type TenantContext, type WebhookDeliveryMessage } from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import { WEBHOOK_DELIVERIES_TOPIC } from '@leadstream/runtime';
import { findWebhook, newId, tenantOfWebhook } from './webhook-access';

export interface RetryDeliveryDeps {
  webhooks: Pick<WebhookRepository, 'find'>;
  deliveries: Pick<WebhookDeliveryRepository, 'find'>;
  log: Pick<EventLog, 'produce'>;
}

export interface RetryDeliveryInput {
  tenant: TenantContext;
  webhookId: string;
  deliveryId: string;
}

export interface RetryDeliveryResult {
  deliveryId: string;
  eventId: string;
  resendId: string;
}

export async function retryDelivery(deps: RetryDeliveryDeps, input: RetryDeliveryInput): Promise<RetryDeliveryResult> {
  const webhook = await findWebhook(deps, input.tenant, input.webhookId);
  const tenant = tenantOfWebhook(webhook);
  const delivery = await deps.deliveries.find(tenant, webhook.id, input.deliveryId);
  if (!delivery) throw new DomainError('NOT_FOUND', 'Webhook delivery not found');
  const resendId = newId('rsd');
  const message: WebhookDeliveryMessage = {
    schema_version: 1,
    delivery_id: delivery._id,
    webhook_id: webhook.id,
    organization_id: webhook.organization_id,
    environment: webhook.environment,
    kind: 'resend',
    resend_id: resendId,
  };
  await deps.log.produce(WEBHOOK_DELIVERIES_TOPIC, [{ key: webhook.id, value: JSON.stringify(message) }]);
  return { deliveryId: delivery._id, eventId: delivery.event_id, resendId };
}
