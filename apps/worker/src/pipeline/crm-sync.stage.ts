/**
 * CRM sync stage: consumes leads.routed (the route stage's output), crm.sync.requests (manual
 * syncs, POST /api/crm/:id/sync/:leadId) and the retry delay topics crm.retry.<step>. Each
 * (lead, connection) is one sync actor (crm-sync.machine.ts). A batch:
 *
 * 1. reads the leads (whose `crm_syncs` hold their sync actors) and the connections at once;
 * 2. calls the CRMs (bounded in parallel; one sync's messages in order) through CrmClient;
 * 3. advances each sync with the outcome: synced, a retry on the next delay topic (Retry-After
 *    respected), or failed (a permanent error, or the schedule used up);
 * 4. writes each lead (version-checked) with its syncs and crm fields, and its events
 *    (lead.crm_synced, lead.crm_sync_failed) and retry records as the lead's outputs; the syncs
 *    are also written to the `crm_syncs` collection, which the API reads.
 *
 * The actors live in the lead, not only in `crm_syncs`, so that a sync's state, the lead's
 * fields and the outputs are one version-checked write: where the store and the log are
 * different systems the batch writer stores documents before leads, and a sync document stored
 * ahead of a lead write that lost its compare-and-set would make the batch decided again skip the
 * attempt and lose its event and retry.
 *
 * Effects are at-least-once (docs/pipeline.md): a batch decided again after a write conflict
 * reuses the outcomes of its calls, and a redelivered batch calls again, which the CRM answers as
 * an upsert (external id, email, Idempotency-Key): never a second record. Sandbox leads are never
 * synced: their crm_sync_status is not_applicable.
 */
import { CrmSyncRepository, type CrmConnectionRepository, type LeadRepository } from '@leadstream/dal';
import {
  advanceCrmSync,
  crmSyncId,
  leadCrmFields,
  nextRetryStep,
  startCrmSync,
  type CrmConnection,
  type CrmConnectionRecord,
  type CrmRetryStep,
  type CrmSyncEvent,
  type CrmSyncRecord,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import { CRM_SYNC_REQUESTS_TOPIC, crmRetryTopic, openCrmConnection, type CredentialsCipher, type CrmClient, type CrmSyncResult } from '@leadstream/runtime';
import { parseLeadRouted, type LeadRoutedMessage } from '@leadstream/schemas';
import type { BatchStage, StageBatchResult } from '../batch/batch-stage';
import { emptyBatchWrite, type OutputRecord } from '../batch/batch-write';
import { LeadBatch } from '../batch/lead-batch';
import { deadLetter, mapBounded } from '../batch/lead-stage';
import { eventOutput } from './outputs';

export const LEADS_ROUTED_TOPIC = 'leads.routed';

/** A retry as it waits on crm.retry.<step> (keyed by lead id). */
export interface CrmRetryMessage {
  schema_version: 1;
  kind: 'retry';
  message_id: string;
  sync_id: string;
  lead_id: string;
  connection_id: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  /** The attempt this message makes (2 for the first retry). */
  attempt: number;
  step: string;
  scheduled_at: string;
}

/** A manual sync (apps/api crm.routes.ts produces it). */
export interface CrmManualSyncMessage {
  schema_version: 1;
  kind: 'manual';
  message_id: string;
  sync_id: string;
  lead_id: string;
  connection_id: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  requested_by: string;
  requested_at: string;
}

export interface CrmSyncStageDependencies {
  leads: Pick<LeadRepository, 'findManyById'>;
  connections: Pick<CrmConnectionRepository, 'findManyById'>;
  cipher: CredentialsCipher;
  client: Pick<CrmClient, 'sync'>;
  schedule: CrmRetryStep[];
  /** CRM calls of one batch in flight at once. */
  concurrency?: number;
  now?: () => Date;
}

type Work =
  | { kind: 'routed'; record: LogRecord; message: LeadRoutedMessage; tenant: TenantContext; leadId: string; messageId: string; syncId: string; connectionId: string; target: { owner: string | null; queue: string | null }; targetIndex: number }
  | { kind: 'manual'; record: LogRecord; message: CrmManualSyncMessage; tenant: TenantContext; leadId: string; messageId: string; syncId: string; connectionId: string }
  | { kind: 'retry'; record: LogRecord; message: CrmRetryMessage; tenant: TenantContext; leadId: string; messageId: string; syncId: string; connectionId: string };

/** A routed lead with nothing to sync (no target, or the sandbox): its crm_sync_status only. */
interface LeadOnly {
  tenant: TenantContext;
  leadId: string;
  messageId: string;
}

interface SyncEffect {
  event?: { name: 'lead.crm_synced' | 'lead.crm_sync_failed'; data: Record<string, unknown> };
  retry?: OutputRecord;
}

const TENANT_SEPARATOR = '\u0000';
const tenantKey = (tenant: TenantContext): string => `${tenant.organizationId}${TENANT_SEPARATOR}${tenant.environment}`;
/** Outcomes kept for a batch decided again after a write conflict (the same attempt is not called twice). */
const OUTCOME_CACHE_LIMIT = 10_000;

function parseSmall<T extends { kind: string }>(value: string, kind: T['kind']): T {
  const message = JSON.parse(value) as Partial<Record<string, unknown>>;
  const strings = ['message_id', 'sync_id', 'lead_id', 'connection_id', 'organization_id'];
  if (message['schema_version'] !== 1 || message['kind'] !== kind || strings.some((field) => typeof message[field] !== 'string') || (message['environment'] !== 'live' && message['environment'] !== 'sandbox')) {
    throw new Error(`not a CRM ${kind} message`);
  }
  if (message['sync_id'] !== crmSyncId(String(message['lead_id']), String(message['connection_id']))) throw new Error('sync_id does not match lead_id and connection_id');
  if (kind === 'retry' && (typeof message['attempt'] !== 'number' || message['attempt'] < 2)) throw new Error('a retry names its attempt (2 or more)');
  return message as unknown as T;
}

export function crmSyncStage(deps: CrmSyncStageDependencies): BatchStage {
  const now = deps.now ?? (() => new Date());
  const outcomes = new Map<string, CrmSyncResult>();

  // With its tenant, so a rotated Salesforce refresh token is stored back to it.
  const open = (record: CrmConnectionRecord): CrmConnection => openCrmConnection(record, deps.cipher);

  const remember = (key: string, result: CrmSyncResult): void => {
    if (outcomes.size >= OUTCOME_CACHE_LIMIT) outcomes.delete(outcomes.keys().next().value as string);
    outcomes.set(key, result);
  };

  return {
    name: 'crm-sync',
    topic: LEADS_ROUTED_TOPIC,
    async process(records: LogRecord[]): Promise<StageBatchResult> {
      const write = emptyBatchWrite();
      const works: Work[] = [];
      const leadOnly: LeadOnly[] = [];
      for (const record of records) {
        try {
          if (record.topic.endsWith(LEADS_ROUTED_TOPIC)) {
            const message = parseLeadRouted(JSON.parse(record.value));
            const tenant = { organizationId: message.organization_id, environment: message.environment };
            // No CRM sync in the sandbox, whatever a message says.
            if (message.environment === 'sandbox' || message.route.targets.length === 0) {
              leadOnly.push({ tenant, leadId: message.lead_id, messageId: message.message_id });
              continue;
            }
            message.route.targets.forEach((target, index) => {
              works.push({ kind: 'routed', record, message, tenant, leadId: message.lead_id, messageId: message.message_id, syncId: crmSyncId(message.lead_id, target.connection_id), connectionId: target.connection_id, target: { owner: target.owner, queue: target.queue }, targetIndex: index });
            });
          } else if (record.topic.endsWith(CRM_SYNC_REQUESTS_TOPIC)) {
            const message = parseSmall<CrmManualSyncMessage>(record.value, 'manual');
            if (message.environment === 'sandbox') continue;
            works.push({ kind: 'manual', record, message, tenant: { organizationId: message.organization_id, environment: message.environment }, leadId: message.lead_id, messageId: message.message_id, syncId: message.sync_id, connectionId: message.connection_id });
          } else {
            const message = parseSmall<CrmRetryMessage>(record.value, 'retry');
            if (message.environment === 'sandbox') continue;
            works.push({ kind: 'retry', record, message, tenant: { organizationId: message.organization_id, environment: message.environment }, leadId: message.lead_id, messageId: message.message_id, syncId: message.sync_id, connectionId: message.connection_id });
          }
        } catch (error) {
          write.records.push(deadLetter(record, `not a CRM sync message: ${error instanceof Error ? error.message : String(error)}`));
        }
      }

      // 1. Everything the batch reads, at once.
      const wanted = [...works, ...leadOnly].map((work) => ({ tenant: work.tenant, id: work.leadId }));
      const batch = await LeadBatch.prefetch(deps.leads, wanted);
      await waitForInFlightOutboxes(deps.leads, batch, wanted, new Set([...works, ...leadOnly].map((work) => work.messageId)));
      const byTenant = new Map<string, { tenant: TenantContext; connections: Set<string> }>();
      for (const work of works) {
        const key = tenantKey(work.tenant);
        const group = byTenant.get(key) ?? { tenant: work.tenant, connections: new Set<string>() };
        group.connections.add(work.connectionId);
        byTenant.set(key, group);
      }
      const syncs = new Map<string, CrmSyncRecord>();
      for (const lead of batch.all()) for (const sync of Object.values(syncsOfLead(lead))) syncs.set(sync._id, sync);
      const connections = new Map<string, CrmConnectionRecord>();
      await Promise.all(
        [...byTenant.values()].map(async ({ tenant, connections: ids }) => {
          for (const connection of await deps.connections.findManyById(tenant, [...ids])) connections.set(`${tenantKey(tenant)}${TENANT_SEPARATOR}${connection._id}`, connection);
        }),
      );

      // 2. and 3. The calls, one sync's messages in order, syncs in parallel; then the transitions.
      const changed = new Set<string>();
      const effects = new Map<string, SyncEffect[]>();
      const groups = new Map<string, Work[]>();
      for (const work of works) groups.set(work.syncId, [...(groups.get(work.syncId) ?? []), work]);
      await mapBounded([...groups.values()], deps.concurrency ?? 16, async (group) => {
        for (const work of group) {
          const lead = batch.get(work.tenant, work.leadId);
          const at = now();
          let sync = syncs.get(work.syncId) ?? null;
          if (sync?.applied_messages.includes(work.messageId)) continue;
          if (!sync) {
            if (work.kind === 'retry') continue;
            if (!lead) continue;
            const connection = connections.get(`${tenantKey(work.tenant)}${TENANT_SEPARATOR}${work.connectionId}`);
            const existingForLead = [...syncs.values()].filter((other) => other.lead_id === work.leadId).length;
            sync = newSync(work, lead, connection, existingForLead, at.toISOString());
          }
          const actor = sync.actor;
          // What this message asks of the sync in its state.
          let start: CrmSyncEvent[] = [];
          if (work.kind === 'retry') {
            if (actor.state !== 'retry_scheduled' || actor.context.attempts !== work.message.attempt - 1) continue;
            start = [{ type: 'ATTEMPT', at: at.toISOString() }];
          } else if (actor.state === 'synced' || actor.state === 'failed') {
            start = [{ type: 'RESYNC' }, { type: 'ATTEMPT', at: at.toISOString() }];
          } else if (actor.state === 'pending' || (work.kind === 'manual' && actor.state === 'retry_scheduled')) {
            start = [{ type: 'ATTEMPT', at: at.toISOString() }];
          } else {
            // A routed lead whose sync already waits for a retry: that retry will carry it.
            sync = { ...sync, applied_messages: [...sync.applied_messages, work.messageId] };
            syncs.set(sync._id, sync);
            changed.add(sync._id);
            continue;
          }
          let next = start.reduce((state, event) => advanceCrmSync(state, event), actor);
          const attempt = next.context.attempts;
          const connectionRecord = connections.get(`${tenantKey(work.tenant)}${TENANT_SEPARATOR}${work.connectionId}`);
          let result: CrmSyncResult;
          if (!lead || lead.deleted_at) result = { outcome: { kind: 'permanent', error: 'the lead no longer exists', status: null }, recordUrl: null, timeMs: 0 };
          else if (!connectionRecord) result = { outcome: { kind: 'permanent', error: 'the CRM connection no longer exists', status: null }, recordUrl: null, timeMs: 0 };
          else if (!connectionRecord.enabled) result = { outcome: { kind: 'permanent', error: 'the CRM connection is disabled', status: null }, recordUrl: null, timeMs: 0 };
          else {
            const key = `${work.syncId}#${work.messageId}#${attempt}`;
            const known = outcomes.get(key);
            if (known) result = known;
            else {
              result = await deps.client.sync(open(connectionRecord), lead, { owner: sync.owner, queue: sync.queue }, sync.crm_id);
              remember(key, result);
            }
          }
          const done = now().toISOString();
          const effect: SyncEffect = {};
          const outcome = result.outcome;
          if (outcome.kind === 'synced') {
            next = advanceCrmSync(next, { type: 'SUCCEEDED', at: done, crmId: outcome.crmId, status: null });
            // A receiver that answers no id: the external id it was given (the lead id) names the record.
            const crmId = next.context.crmId ?? work.leadId;
            effect.event = { name: 'lead.crm_synced', data: { lead_id: work.leadId, crm_type: sync.crm_type, crm_id: crmId, crm_record_url: result.recordUrl, synced_at: done, connection_id: work.connectionId } };
            sync = { ...sync, crm_record_url: result.recordUrl };
          } else {
            const status = outcome.status;
            const step = outcome.kind === 'retryable' ? nextRetryStep(deps.schedule, attempt, outcome.retryAfterMs) : null;
            if (step) {
              const nextAttemptAt = new Date(Date.parse(done) + step.step.delayMs).toISOString();
              next = advanceCrmSync(next, { type: 'RETRY_SCHEDULED', at: done, error: outcome.error, status, nextAttemptAt });
              const retry: CrmRetryMessage = {
                schema_version: 1,
                kind: 'retry',
                message_id: `${work.syncId}#retry${attempt + 1}@${done}`,
                sync_id: work.syncId,
                lead_id: work.leadId,
                connection_id: work.connectionId,
                organization_id: work.tenant.organizationId,
                environment: work.tenant.environment,
                attempt: attempt + 1,
                step: step.step.name,
                scheduled_at: done,
              };
              effect.retry = { topic: crmRetryTopic(step.step.name), key: work.leadId, value: JSON.stringify(retry) };
            } else {
              const exhausted = outcome.kind === 'retryable';
              const error = exhausted ? `${outcome.error} (gave up after ${attempt} attempts)` : outcome.error;
              next = advanceCrmSync(next, { type: 'FAILED', at: done, error, status, permanent: !exhausted });
              effect.event = {
                name: 'lead.crm_sync_failed',
                data: { lead_id: work.leadId, crm_type: sync.crm_type, connection_id: work.connectionId, error, permanent: !exhausted, attempts: attempt, failed_at: done },
              };
            }
          }
          sync = {
            ...sync,
            actor: next,
            status: next.state,
            crm_id: next.context.crmId,
            synced_at: next.context.syncedAt,
            last_error: next.context.lastError,
            attempts: next.context.attempts,
            next_attempt_at: next.context.nextAttemptAt,
            applied_messages: [...sync.applied_messages, work.messageId].slice(-50),
            updated_at: done,
          };
          syncs.set(sync._id, sync);
          changed.add(sync._id);
          effects.set(work.leadId, [...(effects.get(work.leadId) ?? []), effect]);
        }
      });

      // 4. The leads' crm fields, with their events and retries as the lead's outputs.
      const leadIds = new Map<string, TenantContext>();
      for (const id of changed) {
        const sync = syncs.get(id)!;
        leadIds.set(sync.lead_id, { organizationId: sync.organization_id, environment: sync.environment });
      }
      const at = now().toISOString();
      for (const [leadId, tenant] of leadIds) {
        const lead = batch.get(tenant, leadId);
        const leadEffects = effects.get(leadId) ?? [];
        const outputs: OutputRecord[] = [];
        for (const effect of leadEffects) {
          if (effect.event && lead) outputs.push(eventOutput(lead, effect.event.name, effect.event.data, at));
          if (effect.retry) {
            if (lead) outputs.push(effect.retry);
            else write.records.push(effect.retry);
          }
        }
        if (!lead) continue;
        const ofLead = [...syncs.values()].filter((sync) => sync.lead_id === leadId && sync.organization_id === tenant.organizationId && sync.environment === tenant.environment);
        const fields = leadCrmFields(ofLead);
        const routedIds = works.filter((work) => work.kind === 'routed' && work.leadId === leadId).map((work) => work.messageId);
        const applied = [...new Set([...lead.applied_messages, ...routedIds])];
        const same = lead.crm_sync_status === fields.crm_sync_status && lead.crm_id === fields.crm_id && lead.crm_synced_at === fields.crm_synced_at && applied.length === lead.applied_messages.length;
        if (same && outputs.length === 0 && !ofLead.some((sync) => changed.has(sync._id))) continue;
        const stored: Record<string, CrmSyncRecord> = {};
        for (const sync of ofLead) stored[sync.connection_id] = sync;
        batch.put({ ...lead, ...fields, crm_syncs: stored, updated_at: at, applied_messages: applied }, outputs);
      }
      for (const only of leadOnly) {
        const lead = batch.get(only.tenant, only.leadId);
        if (!lead || lead.applied_messages.includes(only.messageId)) continue;
        batch.put({ ...lead, crm_sync_status: 'not_applicable', updated_at: at, applied_messages: [...lead.applied_messages, only.messageId] }, []);
      }
      if (changed.size > 0) write.documents.push({ collection: CrmSyncRepository.COLLECTION, operations: [...changed].map((id) => CrmSyncRepository.saveOperation(syncs.get(id)!)) });
      batch.toWrite(write);
      return { write, handled: records.length };
    },
  };
}

/** How long an outbox is taken to belong to a writer still producing it (as in lead-stage.ts). */
const OUTBOX_IN_FLIGHT_MS = 5_000;

/**
 * Waits until no lead of the batch has an outbox its writer (the route stage) is still producing:
 * on FerretDB a conditional update is not atomic, so that writer's clear and this batch's write
 * could both apply and the later undo the other (lead-stage.ts does the same for the lead stages).
 */
async function waitForInFlightOutboxes(leads: Pick<LeadRepository, 'findManyById'>, batch: LeadBatch, wanted: Array<{ tenant: TenantContext; id: string }>, applied: ReadonlySet<string>): Promise<void> {
  const started = Date.now();
  for (;;) {
    const waiting = new Set(batch.inFlight(Date.now(), OUTBOX_IN_FLIGHT_MS, applied));
    if (waiting.size === 0 || Date.now() - started > OUTBOX_IN_FLIGHT_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
    const fresh = await LeadBatch.prefetch(leads, wanted.filter((entry) => waiting.has(entry.id)));
    batch.refresh(fresh.all());
  }
}

/** The sync actors a lead holds, by connection id. */
function syncsOfLead(lead: LeadRecord): Record<string, CrmSyncRecord> {
  const value = lead['crm_syncs'];
  return typeof value === 'object' && value !== null ? (value as Record<string, CrmSyncRecord>) : {};
}

function newSync(work: Work, lead: LeadRecord, connection: CrmConnectionRecord | undefined, existingForLead: number, at: string): CrmSyncRecord {
  const actor = startCrmSync(work.syncId);
  return {
    _id: work.syncId,
    organization_id: work.tenant.organizationId,
    environment: work.tenant.environment,
    lead_id: lead._id,
    connection_id: work.connectionId,
    crm_type: connection?.type ?? 'webhook_json',
    target_index: work.kind === 'routed' ? work.targetIndex : existingForLead,
    owner: work.kind === 'routed' ? work.target.owner : null,
    queue: work.kind === 'routed' ? work.target.queue : null,
    status: actor.state,
    actor,
    crm_id: null,
    crm_record_url: null,
    synced_at: null,
    last_error: null,
    attempts: 0,
    next_attempt_at: null,
    applied_messages: [],
    created_at: at,
    updated_at: at,
  };
}

