/**
 * Notify stage (docs/webhooks.md, docs/pipeline.md): consumes leads.events, where every event of
 * the system lands, and makes one webhook delivery per (subscribed webhook, event). A tenant's
 * enabled webhooks are configuration: kept by the ConfigCache until the api announces a change of
 * them, and read no older than the version an event is stamped with (the intake chain stamps its
 * events with its commands' version, so a lead accepted after a webhook was made is delivered to
 * it). A tenant with an unstamped event in the batch (the api's, crm-sync's) is read from the store
 * for the batch. A webhook.disabled event (the deliver stage disabled it) drops the kept webhooks.
 * Sandbox events go to sandbox webhooks only, live events to the others (docs/permissions.md).
 *
 * A delivery's id is derived from (webhook id, event id) and it is created with an upsert, so the
 * same event consumed twice makes one delivery; its message to webhooks.deliveries (keyed by
 * webhook id) may go out twice, and the deliver stage applies it once.
 */
import { WebhookDeliveryRepository, type WebhookDeliveryRecord, type WebhookRepository } from '@leadstream/dal';
import {
  isWebhookEvent,
  startDelivery,
  webhookBody,
  webhookDeliveryId,
  webhookWants,
  type TenantContext,
  type Webhook,
  type WebhookDeliveryMessage,
} from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import { leadEventItems } from '@leadstream/schemas';
import { pickTraceHeaders, WEBHOOK_DELIVERIES_TOPIC, withTraceHeaders } from '@leadstream/runtime';
import type { BatchStage, StageBatchResult } from '../batch/batch-stage';
import { emptyBatchWrite, type OutputRecord } from '../batch/batch-write';
import { type ConfigSource, stampedConfigVersion, uncachedConfig } from '../batch/config-source';
import { deadLetter } from '../batch/lead-stage';
import { TOPICS } from './outputs';

export interface NotifyStageOptions {
  webhooks: Pick<WebhookRepository, 'listEnabled'>;
  /** Where the enabled webhooks are kept between batches (the store itself when absent). */
  config?: ConfigSource;
  now?: () => Date;
}

/** The events whose deliveries one notify batch makes at most (as many as 200 records of one event made). */
export const MAX_EVENTS_PER_BATCH = 200;

/** The ConfigCache kind of a tenant's enabled webhooks. */
export const webhooksKind = (environment: string): string => `webhooks:${environment}`;

interface DomainEvent {
  id: string;
  event: string;
  timestamp: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  data: Record<string, unknown>;
}

/** The lead a lead event is about (`lead_id`, or lead.created's `lead.id`), for its delivery. */
function leadIdOf(data: Record<string, unknown>): { lead_id?: string } {
  const lead = data['lead'];
  const id =
    data['lead_id'] ??
    (typeof lead === 'object' && lead !== null ? (lead as Record<string, unknown>)['id'] : undefined);
  return typeof id === 'string' ? { lead_id: id } : {};
}

/** An event as notify needs it: the light check of its envelope, not the whole schema. */
function checkEvent(value: unknown): DomainEvent {
  const event = value as Partial<DomainEvent> | null;
  if (
    typeof event !== 'object' ||
    event === null ||
    typeof event.id !== 'string' ||
    typeof event.event !== 'string' ||
    typeof event.timestamp !== 'string' ||
    typeof event.organization_id !== 'string' ||
    (event.environment !== 'live' && event.environment !== 'sandbox') ||
    typeof event.data !== 'object' ||
    event.data === null
  ) {
    throw new Error('not a domain event');
  }
  return event as DomainEvent;
}

const tenantKey = (tenant: TenantContext): string => `${tenant.environment}\u0000${tenant.organizationId}`;

interface TenantRead {
  tenant: TenantContext;
  /** The newest version stamped on the tenant's events of the batch. */
  version: number | undefined;
  /** Whether every one of them is stamped: else the webhooks are read from the store for the batch. */
  stamped: boolean;
}

export function notifyStage(options: NotifyStageOptions): BatchStage {
  const now = options.now ?? (() => new Date());
  const config = options.config ?? uncachedConfig;
  const webhooksOf = async ({ tenant, version, stamped }: TenantRead): Promise<Webhook[]> => {
    const load = () => options.webhooks.listEnabled(tenant);
    return stamped ? config.get(tenant.organizationId, webhooksKind(tenant.environment), load, version) : load();
  };
  return {
    name: 'notify',
    topic: TOPICS.events,
    async process(records: LogRecord[]): Promise<StageBatchResult> {
      const write = emptyBatchWrite();
      const events: DomainEvent[] = [];
      // The trace context of each event's record (docs/operations.md, "Tracing"): its deliveries carry it on.
      const traceOf = new Map<DomainEvent, Record<string, string> | undefined>();
      const tenants = new Map<string, TenantRead>();
      let handled = 0;
      for (const record of records) {
        // A batch of records that each carry a lead's events of a batch would make four times the
        // deliveries of one of single events: it ends at MAX_EVENTS_PER_BATCH, and the rest of
        // the records go in the next one, so one commit never holds more than that many events'
        // deliveries (a thread stall the intake waits behind).
        if (events.length >= MAX_EVENTS_PER_BATCH) break;
        handled++;
        try {
          for (const event of leadEventItems(record.value).map(checkEvent)) {
            // The deliver stage disabled a webhook: the kept list is stale from here on.
            if (event.event === 'webhook.disabled')
              config.forget?.(event.organization_id, webhooksKind(event.environment));
            // Events nobody may subscribe to (webhook.disabled, events of later issues) make no delivery.
            if (!isWebhookEvent(event.event)) continue;
            events.push(event);
            traceOf.set(event, pickTraceHeaders(record.headers));
            const tenant = { organizationId: event.organization_id, environment: event.environment };
            const stamp = stampedConfigVersion(record.headers);
            const read = tenants.get(tenantKey(tenant)) ?? { tenant, version: stamp, stamped: true };
            read.stamped &&= stamp !== undefined;
            read.version = Math.max(read.version ?? 0, stamp ?? 0);
            tenants.set(tenantKey(tenant), read);
          }
        } catch (error) {
          write.records.push(deadLetter(record, error instanceof Error ? error.message : String(error)));
        }
      }
      const webhooksByTenant = new Map<string, Webhook[]>(
        await Promise.all([...tenants].map(async ([key, read]) => [key, await webhooksOf(read)] as const)),
      );
      const at = now().toISOString();
      const deliveries = new Map<string, { record: WebhookDeliveryRecord; output: OutputRecord }>();
      for (const event of events) {
        const webhooks =
          webhooksByTenant.get(tenantKey({ organizationId: event.organization_id, environment: event.environment })) ??
          [];
        // The envelope is the same for every webhook of the event: serialized once.
        let body: string | undefined;
        for (const webhook of webhooks) {
          if (!webhookWants(webhook, event.event, event.environment)) continue;
          const id = webhookDeliveryId(webhook.id, event.id);
          if (deliveries.has(id)) continue;
          const record: WebhookDeliveryRecord = {
            _id: id,
            organization_id: webhook.organization_id,
            environment: webhook.environment,
            webhook_id: webhook.id,
            event_id: event.id,
            event_type: event.event,
            // The lead's timeline finds its deliveries by it (docs/timeline.md).
            ...leadIdOf(event.data),
            body: (body ??= webhookBody(event)),
            created_at: at,
            status: 'pending',
            actor: startDelivery(id),
            attempt_log: [],
            resend_ids: [],
            version: 0,
          };
          const message: WebhookDeliveryMessage = {
            schema_version: 1,
            delivery_id: id,
            webhook_id: webhook.id,
            organization_id: webhook.organization_id,
            environment: webhook.environment,
            kind: 'initial',
          };
          deliveries.set(id, {
            record,
            output: withTraceHeaders<OutputRecord>(
              { topic: WEBHOOK_DELIVERIES_TOPIC, key: webhook.id, value: JSON.stringify(message) },
              traceOf.get(event),
            ),
          });
        }
      }
      if (deliveries.size > 0) {
        write.documents.push({
          collection: WebhookDeliveryRepository.COLLECTION,
          operations: [...deliveries.values()].map(({ record }) =>
            WebhookDeliveryRepository.createOperation(record),
          ) as never,
        });
        write.records.push(...[...deliveries.values()].map(({ output }) => output));
      }
      return { write, handled };
    },
  };
}
