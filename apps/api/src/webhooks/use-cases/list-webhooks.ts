/** GET /api/webhooks: the webhooks of both environments, oldest first, each with its delivery stats. */
import type { WebhookDeliveryRepository, WebhookRepository } from '@leadstream/dal';
import type { TenantContext, Webhook } from '@leadstream/domain';
import type { CredentialsCipher } from '@leadstream/runtime';
import { readableSecret, tenantOfWebhook, tenantsOf } from './webhook-access';

export interface ListWebhooksDeps {
  webhooks: Pick<WebhookRepository, 'list'>;
  deliveries: Pick<WebhookDeliveryRepository, 'stats' | 'lastTriggeredAt'>;
  cipher: CredentialsCipher;
  clock: () => Date;
}

export interface ListWebhooksInput {
  tenant: TenantContext;
}

export interface ListedWebhook {
  webhook: Webhook;
  /** The signing secret, or null when it does not decrypt with this process's key (shown masked). */
  secret: string | null;
  stats: Awaited<ReturnType<WebhookDeliveryRepository['stats']>>;
  lastTriggeredAt: Awaited<ReturnType<WebhookDeliveryRepository['lastTriggeredAt']>>;
}

export async function listWebhooks(deps: ListWebhooksDeps, input: ListWebhooksInput): Promise<ListedWebhook[]> {
  const now = deps.clock();
  const webhooks = (await Promise.all(tenantsOf(input.tenant).map((tenant) => deps.webhooks.list(tenant))))
    .flat()
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  return Promise.all(
    webhooks.map(async (webhook) => {
      const tenant = tenantOfWebhook(webhook);
      const [stats, lastTriggeredAt] = await Promise.all([
        deps.deliveries.stats(tenant, webhook.id, now),
        deps.deliveries.lastTriggeredAt(tenant, webhook.id),
      ]);
      return { webhook, secret: readableSecret(deps.cipher, webhook), stats, lastTriggeredAt };
    }),
  );
}
