/**
 * Webhooks of a tenant (docs/webhooks.md). A webhook's environment is the events it receives:
 * `sandbox` endpoints the sandbox environment's, the others the live ones (docs/permissions.md);
 * the user API shows both environments of the organization. Every query names the tenant.
 */
import type {
  TenantContext,
  Webhook,
  WebhookDisabledEventRecord,
  WebhookEventName,
  WebhookPatch,
} from '@leadstream/domain';
import type { BulkWriteOperation, Collection, DocumentStore } from '@leadstream/ports';

export const WEBHOOKS_COLLECTION = 'webhooks';

interface WebhookDocument {
  _id: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  url: string;
  events: string[];
  enabled: boolean;
  description?: string | null;
  secret: string;
  created_at: string;
  updated_at: string;
  disabled_at?: string | null;
  disabled_reason?: string | null;
  failure_streak_since?: string | null;
  disabled_event?: WebhookDisabledEventRecord | null;
}

const toWebhook = (doc: WebhookDocument): Webhook => ({
  id: doc._id,
  organization_id: doc.organization_id,
  environment: doc.environment,
  url: doc.url,
  events: doc.events as WebhookEventName[],
  enabled: doc.enabled,
  description: doc.description ?? null,
  secret: doc.secret,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  // FerretDB may drop null fields: absent reads as null.
  disabled_at: doc.disabled_at ?? null,
  disabled_reason: doc.disabled_reason ?? null,
  failure_streak_since: doc.failure_streak_since ?? null,
  ...(doc.disabled_event ? { disabled_event: doc.disabled_event } : {}),
});

const tenantFilter = (tenant: TenantContext) => ({
  organization_id: tenant.organizationId,
  environment: tenant.environment,
});

export class WebhookRepository {
  static readonly COLLECTION = WEBHOOKS_COLLECTION;
  private readonly webhooks: Collection<WebhookDocument>;

  constructor(store: DocumentStore) {
    this.webhooks = store.collection<WebhookDocument>(WEBHOOKS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(WEBHOOKS_COLLECTION)
      .createIndex({ keys: { organization_id: 1, environment: 1, created_at: 1 }, name: 'tenant_created_at' });
  }

  /** Oldest first. */
  async list(tenant: TenantContext): Promise<Webhook[]> {
    return (await this.webhooks.find(tenantFilter(tenant), { sort: { created_at: 1, _id: 1 } })).map(toWebhook);
  }

  /** The notify stage's read: the tenant's enabled webhooks (one query per tenant and batch). */
  async listEnabled(tenant: TenantContext): Promise<Webhook[]> {
    return (
      await this.webhooks.find({ ...tenantFilter(tenant), enabled: true }, { sort: { created_at: 1, _id: 1 } })
    ).map(toWebhook);
  }

  async find(tenant: TenantContext, id: string): Promise<Webhook | null> {
    const doc = await this.webhooks.findOne({ _id: id, ...tenantFilter(tenant) });
    return doc ? toWebhook(doc) : null;
  }

  /** The webhooks of these ids in the tenant (the deliver stage's read). */
  async findMany(tenant: TenantContext, ids: string[]): Promise<Webhook[]> {
    if (ids.length === 0) return [];
    return (await this.webhooks.find({ _id: { $in: ids }, ...tenantFilter(tenant) })).map(toWebhook);
  }

  async create(webhook: Webhook): Promise<void> {
    const { id, ...rest } = webhook;
    await this.webhooks.insertOne({ _id: id, ...rest, events: [...rest.events] });
  }

  /** Applies a PATCH; enabling clears the automatic disable's note and restarts the failure count. */
  async update(tenant: TenantContext, id: string, patch: WebhookPatch, at: string): Promise<Webhook | null> {
    const set: Record<string, string | boolean | string[] | null> = { updated_at: at };
    if (patch.url !== undefined) set['url'] = patch.url;
    if (patch.events !== undefined) set['events'] = [...patch.events];
    if (patch.enabled !== undefined) set['enabled'] = patch.enabled;
    const enabling = patch.enabled === true;
    const doc = await this.webhooks.findOneAndUpdate(
      { _id: id, ...tenantFilter(tenant) },
      enabling
        ? {
            $set: { ...set, failure_streak_since: at },
            $unset: { disabled_at: true, disabled_reason: true, disabled_event: true },
          }
        : { $set: set },
      { returnDocument: 'after' },
    );
    return doc ? toWebhook(doc) : null;
  }

  async delete(tenant: TenantContext, id: string): Promise<boolean> {
    return (await this.webhooks.deleteOne({ _id: id, ...tenantFilter(tenant) })) === 1;
  }

  /** A success moves the start of the failure count forward (never back). */
  static successOperation(tenant: TenantContext, id: string, at: string): BulkWriteOperation<WebhookDocument> {
    return {
      updateOne: {
        filter: {
          _id: id,
          ...tenantFilter(tenant),
          $or: [
            { failure_streak_since: { $exists: false } },
            { failure_streak_since: null },
            { failure_streak_since: { $lt: at } },
          ],
        },
        update: { $set: { failure_streak_since: at } },
      },
    };
  }

  /**
   * Disables the webhook with the reason and its webhook.disabled event, if it is still enabled and
   * unchanged since it was read (`updatedAt`, when given: a PATCH meanwhile, a re-enabling that
   * restarted the failure count for one, makes the decision stale). Matches nothing otherwise
   * (disabled or deleted meanwhile, or changed): the caller must then not emit the event.
   */
  static disableOperation(
    tenant: TenantContext,
    id: string,
    at: string,
    reason: string,
    event: WebhookDisabledEventRecord,
    updatedAt?: string,
  ): BulkWriteOperation<WebhookDocument> {
    return {
      updateOne: {
        filter: {
          _id: id,
          ...tenantFilter(tenant),
          enabled: true,
          ...(updatedAt !== undefined ? { updated_at: updatedAt } : {}),
        },
        update: {
          $set: {
            enabled: false,
            disabled_at: at,
            disabled_reason: reason,
            disabled_event: { delivery_id: event.delivery_id, value: event.value },
            updated_at: at,
          },
        },
      },
    };
  }
}
