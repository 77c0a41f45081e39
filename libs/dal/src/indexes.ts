/** Every index the repositories rely on. Idempotent: run at every start. */
import type { DocumentStore } from '@leadstream/ports';
import { COLLECTIONS } from './collections';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { VendorRefusalRepository } from './vendor-refusal.repository';
import { SuppressionRepository } from './suppression.repository';
import { WebhookRepository } from './webhook.repository';
import { CapRepository } from './cap.repository';

export async function ensureIndexes(store: DocumentStore): Promise<void> {
  // Authentication finds a key by its hash; two keys with one hash would be a broken secret.
  await store
    .collection(COLLECTIONS.apiKeys)
    .createIndex({ keys: { key_hash: 1 }, name: 'key_hash_unique', unique: true });
  await store
    .collection(COLLECTIONS.apiKeys)
    .createIndex({ keys: { organization_id: 1, environment: 1, created_at: -1 }, name: 'tenant_created_at' });
  await store
    .collection(COLLECTIONS.vendors)
    .createIndex({ keys: { organization_id: 1, name: 1 }, name: 'organization_name' });
  // A window's counter vanishes once the window has ended.
  await store
    .collection(COLLECTIONS.rateLimits)
    .createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 });
  await WebhookRepository.ensureIndexes(store);
  await WebhookDeliveryRepository.ensureIndexes(store);
  await VendorRefusalRepository.ensureIndexes(store);
  await SuppressionRepository.ensureIndexes(store);
  await CapRepository.ensureIndexes(store);
}
