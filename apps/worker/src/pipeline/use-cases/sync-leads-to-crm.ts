/**
 * The crm-sync stage's batch as a use case (the stage's contract is in crm-sync.stage.ts): parse
 * the three kinds of message → prefetch the leads and connections → per sync, in order: plan the
 * attempt (no I/O), call the CRM (bounded, outcomes kept for a batch decided again), settle the
 * outcome into the sync and its event or retry → collect the lead writes.
 */
import { CrmSyncRepository, type CrmConnectionRepository, type LeadRepository } from '@leadstream/dal';
import {
  advanceCrmSync,
  crmSyncId,
  leadCrmFields,
  nextRetryStep,
  startCrmSync,
  type CrmConnectionRecord,
  type CrmRetryStep,
  type CrmSyncEvent,
  type CrmSyncRecord,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import {
  CRM_SYNC_REQUESTS_TOPIC,
  crmRetryTopic,
  inClientSpan,
  type CrmManualSyncMessage,
  openCrmConnection,
  pickTraceHeaders,
  withTraceHeaders,
  type CredentialsCipher,
  type CrmClient,
  type CrmSyncResult,
} from '@leadstream/runtime';
import { parseLeadRouted, type LeadRoutedMessage } from '@leadstream/schemas';
import type { StageBatchResult } from '../../batch/batch-stage';
import { emptyBatchWrite, type BatchWrite, type OutputRecord } from '../../batch/batch-write';
import { LeadBatch } from '../../batch/lead-batch';
import { deadLetter, mapBounded } from '../../batch/lead-stage';
import { eventOutput, TOPICS } from '../outputs';
import { withCrmSyncedEntry } from '../../timeline/intake-timeline';

export interface SyncLeadsToCrmDeps {
  leads: Pick<LeadRepository, 'findManyById'>;
  connections: Pick<CrmConnectionRepository, 'findManyById'>;
  cipher: CredentialsCipher;
  client: Pick<CrmClient, 'sync'>;
  schedule: CrmRetryStep[];
  /** CRM calls of one batch in flight at once. */
  concurrency: number;
  now: () => Date;
  /** Outcomes of the calls made, kept for a batch decided again after a write conflict (the same attempt is not called twice). */
  outcomes: Map<string, CrmSyncResult>;
}

export interface SyncLeadsToCrmInput {
  records: LogRecord[];
}

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

export type CrmWork =
  | {
      kind: 'routed';
      record: LogRecord;
      message: LeadRoutedMessage;
      tenant: TenantContext;
      leadId: string;
      messageId: string;
      syncId: string;
      connectionId: string;
      target: { owner: string | null; queue: string | null };
      targetIndex: number;
    }
  | {
      kind: 'manual';
      record: LogRecord;
      message: CrmManualSyncMessage;
      tenant: TenantContext;
      leadId: string;
      messageId: string;
      syncId: string;
      connectionId: string;
    }
  | {
      kind: 'retry';
      record: LogRecord;
      message: CrmRetryMessage;
      tenant: TenantContext;
      leadId: string;
      messageId: string;
      syncId: string;
      connectionId: string;
    };

/** A routed lead with nothing to sync (no target, or the sandbox): its crm_sync_status only. */
export interface LeadOnly {
  tenant: TenantContext;
  leadId: string;
  messageId: string;
}

export interface SyncEffect {
  event?: { name: 'lead.crm_synced' | 'lead.crm_sync_failed'; data: Record<string, unknown> };
  retry?: OutputRecord;
  /** The trace context of the message that made the attempt, for the event and the retry (docs/operations.md, "Tracing"). */
  trace?: Record<string, string>;
}

const TENANT_SEPARATOR = '\u0000';
const tenantKey = (tenant: TenantContext): string => `${tenant.organizationId}${TENANT_SEPARATOR}${tenant.environment}`;
function parseSmall<T extends { kind: string }>(value: string, kind: T['kind']): T {
  const message = JSON.parse(value) as Partial<Record<string, unknown>>;
  const strings = ['message_id', 'sync_id', 'lead_id', 'connection_id', 'organization_id'];
  if (
    message['schema_version'] !== 1 ||
    message['kind'] !== kind ||
    strings.some((field) => typeof message[field] !== 'string') ||
    (message['environment'] !== 'live' && message['environment'] !== 'sandbox')
  ) {
    throw new Error(`not a CRM ${kind} message`);
  }
  if (message['sync_id'] !== crmSyncId(String(message['lead_id']), String(message['connection_id'])))
    throw new Error('sync_id does not match lead_id and connection_id');
  if (kind === 'retry' && (typeof message['attempt'] !== 'number' || message['attempt'] < 2))
    throw new Error('a retry names its attempt (2 or more)');
  return message as unknown as T;
}

const OUTCOME_CACHE_LIMIT = 10_000;

function remember(outcomes: Map<string, CrmSyncResult>, key: string, result: CrmSyncResult): void {
  if (outcomes.size >= OUTCOME_CACHE_LIMIT) outcomes.delete(outcomes.keys().next().value as string);
  outcomes.set(key, result);
}

/** What the batch's syncs share while it is decided. */
interface CrmSyncBatch {
  batch: LeadBatch;
  syncs: Map<string, CrmSyncRecord>;
  connections: Map<string, CrmConnectionRecord>;
  /** The syncs this batch changed, by id. */
  changed: Set<string>;
  /** Events and retries, by lead id. */
  effects: Map<string, SyncEffect[]>;
}

/** An attempt planned: the sync as it stands, its actor after the start events, and the attempt's number. */
interface PlannedAttempt {
  sync: CrmSyncRecord;
  next: CrmSyncRecord['actor'];
  attempt: number;
}

export async function syncLeadsToCrm(deps: SyncLeadsToCrmDeps, input: SyncLeadsToCrmInput): Promise<StageBatchResult> {
  const write = emptyBatchWrite();
  const enteredAt = deps.now();
  const { works, leadOnly } = parseWork(input.records, write);
  const state = await prefetch(deps, works, leadOnly);
  // The calls, one sync's messages in order, syncs in parallel; then the transitions.
  const groups = new Map<string, CrmWork[]>();
  for (const work of works) groups.set(work.syncId, [...(groups.get(work.syncId) ?? []), work]);
  await mapBounded([...groups.values()], deps.concurrency, async (group) => {
    for (const work of group) await syncLeadToCrm(deps, state, work);
  });
  collectLeadWrites(deps, state, works, leadOnly, write, enteredAt);
  state.batch.toWrite(write);
  return { write, handled: input.records.length };
}

/** The three kinds of message (routed, manual, retry) as work; one that does not parse goes to the dead letters. */
function parseWork(records: LogRecord[], write: BatchWrite): { works: CrmWork[]; leadOnly: LeadOnly[] } {
  const works: CrmWork[] = [];
  const leadOnly: LeadOnly[] = [];
  for (const record of records) {
    try {
      if (record.topic.endsWith(TOPICS.routed)) {
        const message = parseLeadRouted(JSON.parse(record.value));
        const tenant = { organizationId: message.organization_id, environment: message.environment };
        // No CRM sync in the sandbox, whatever a message says.
        if (message.environment === 'sandbox' || message.route.targets.length === 0) {
          leadOnly.push({ tenant, leadId: message.lead_id, messageId: message.message_id });
          continue;
        }
        message.route.targets.forEach((target, index) => {
          works.push({
            kind: 'routed',
            record,
            message,
            tenant,
            leadId: message.lead_id,
            messageId: message.message_id,
            syncId: crmSyncId(message.lead_id, target.connection_id),
            connectionId: target.connection_id,
            target: { owner: target.owner, queue: target.queue },
            targetIndex: index,
          });
        });
      } else if (record.topic.endsWith(CRM_SYNC_REQUESTS_TOPIC)) {
        const message = parseSmall<CrmManualSyncMessage>(record.value, 'manual');
        if (message.environment === 'sandbox') continue;
        works.push({
          kind: 'manual',
          record,
          message,
          tenant: { organizationId: message.organization_id, environment: message.environment },
          leadId: message.lead_id,
          messageId: message.message_id,
          syncId: message.sync_id,
          connectionId: message.connection_id,
        });
      } else {
        const message = parseSmall<CrmRetryMessage>(record.value, 'retry');
        if (message.environment === 'sandbox') continue;
        works.push({
          kind: 'retry',
          record,
          message,
          tenant: { organizationId: message.organization_id, environment: message.environment },
          leadId: message.lead_id,
          messageId: message.message_id,
          syncId: message.sync_id,
          connectionId: message.connection_id,
        });
      }
    } catch (error) {
      write.records.push(
        deadLetter(record, `not a CRM sync message: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  }
  return { works, leadOnly };
}

/** Everything the batch reads, at once. */
async function prefetch(
  deps: Pick<SyncLeadsToCrmDeps, 'leads' | 'connections'>,
  works: CrmWork[],
  leadOnly: LeadOnly[],
): Promise<CrmSyncBatch> {
  const wanted = [...works, ...leadOnly].map((work) => ({ tenant: work.tenant, id: work.leadId }));
  const batch = await LeadBatch.prefetch(deps.leads, wanted);
  await waitForInFlightOutboxes(
    deps.leads,
    batch,
    wanted,
    new Set([...works, ...leadOnly].map((work) => work.messageId)),
  );
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
      for (const connection of await deps.connections.findManyById(tenant, [...ids]))
        connections.set(`${tenantKey(tenant)}${TENANT_SEPARATOR}${connection._id}`, connection);
    }),
  );
  return { batch, syncs, connections, changed: new Set(), effects: new Map() };
}

/** One message of one sync: plan, call, settle. */
async function syncLeadToCrm(deps: SyncLeadsToCrmDeps, state: CrmSyncBatch, work: CrmWork): Promise<void> {
  const lead = state.batch.get(work.tenant, work.leadId);
  const planned = planCrmAttempt(state, work, lead, deps.now());
  if (!planned) return;
  const result = await callCrm(deps, state, work, lead, planned);
  settleCrmAttempt(deps, state, work, planned, result);
}

/** What this message asks of the sync in its state; null when nothing is to be called. No I/O. */
function planCrmAttempt(state: CrmSyncBatch, work: CrmWork, lead: LeadRecord | null, at: Date): PlannedAttempt | null {
  let sync = state.syncs.get(work.syncId) ?? null;
  if (sync?.applied_messages.includes(work.messageId)) return null;
  if (!sync) {
    if (work.kind === 'retry') return null;
    if (!lead) return null;
    const connection = state.connections.get(`${tenantKey(work.tenant)}${TENANT_SEPARATOR}${work.connectionId}`);
    const existingForLead = [...state.syncs.values()].filter((other) => other.lead_id === work.leadId).length;
    sync = newSync(work, lead, connection, existingForLead, at.toISOString());
  }
  const actor = sync.actor;
  // What this message asks of the sync in its state.
  let start: CrmSyncEvent[] = [];
  if (work.kind === 'retry') {
    if (actor.state !== 'retry_scheduled' || actor.context.attempts !== work.message.attempt - 1) return null;
    start = [{ type: 'ATTEMPT', at: at.toISOString() }];
  } else if (actor.state === 'synced' || actor.state === 'failed') {
    start = [{ type: 'RESYNC' }, { type: 'ATTEMPT', at: at.toISOString() }];
  } else if (actor.state === 'pending' || (work.kind === 'manual' && actor.state === 'retry_scheduled')) {
    start = [{ type: 'ATTEMPT', at: at.toISOString() }];
  } else {
    // A routed lead whose sync already waits for a retry: that retry will carry it.
    sync = { ...sync, applied_messages: [...sync.applied_messages, work.messageId] };
    state.syncs.set(sync._id, sync);
    state.changed.add(sync._id);
    return null;
  }
  const next = start.reduce((current, event) => advanceCrmSync(current, event), actor);
  return { sync, next, attempt: next.context.attempts };
}

/** The CRM's answer, or the permanent failure of a lead or connection gone or disabled. */
async function callCrm(
  deps: SyncLeadsToCrmDeps,
  state: CrmSyncBatch,
  work: CrmWork,
  lead: LeadRecord | null,
  planned: PlannedAttempt,
): Promise<CrmSyncResult> {
  const { sync, attempt } = planned;
  const connectionRecord = state.connections.get(`${tenantKey(work.tenant)}${TENANT_SEPARATOR}${work.connectionId}`);
  if (!lead || lead.deleted_at)
    return {
      outcome: { kind: 'permanent', error: 'the lead no longer exists', status: null },
      recordUrl: null,
      timeMs: 0,
    };
  if (!connectionRecord)
    return {
      outcome: { kind: 'permanent', error: 'the CRM connection no longer exists', status: null },
      recordUrl: null,
      timeMs: 0,
    };
  if (!connectionRecord.enabled)
    return {
      outcome: { kind: 'permanent', error: 'the CRM connection is disabled', status: null },
      recordUrl: null,
      timeMs: 0,
    };
  const key = `${work.syncId}#${work.messageId}#${attempt}`;
  const known = deps.outcomes.get(key);
  if (known) return known;
  const current = sync;
  const result = await inClientSpan(
    `crm-sync ${current.crm_type}`,
    work.record.headers,
    {
      'leadstream.crm.type': current.crm_type,
      'leadstream.crm.connection_id': work.connectionId,
      'leadstream.lead_id': work.leadId,
    },
    // With its tenant, so a rotated Salesforce refresh token is stored back to it.
    () =>
      deps.client.sync(
        openCrmConnection(connectionRecord, deps.cipher),
        lead,
        { owner: current.owner, queue: current.queue },
        current.crm_id,
      ),
    ({ outcome }) => (outcome.kind === 'synced' ? {} : { status: outcome.status, error: outcome.error }),
  );
  remember(deps.outcomes, key, result);
  return result;
}

/** The sync after the outcome (synced, a retry on the next delay topic, or failed) with its event or retry. */
function settleCrmAttempt(
  deps: Pick<SyncLeadsToCrmDeps, 'schedule' | 'now'>,
  state: CrmSyncBatch,
  work: CrmWork,
  planned: PlannedAttempt,
  result: CrmSyncResult,
): void {
  const { attempt } = planned;
  let { sync, next } = planned;
  const done = deps.now().toISOString();
  const effect: SyncEffect = { trace: pickTraceHeaders(work.record.headers) };
  const outcome = result.outcome;
  if (outcome.kind === 'synced') {
    next = advanceCrmSync(next, { type: 'SUCCEEDED', at: done, crmId: outcome.crmId, status: null });
    // A receiver that answers no id: the external id it was given (the lead id) names the record.
    const crmId = next.context.crmId ?? work.leadId;
    effect.event = {
      name: 'lead.crm_synced',
      data: {
        lead_id: work.leadId,
        crm_type: sync.crm_type,
        crm_id: crmId,
        crm_record_url: result.recordUrl,
        synced_at: done,
        connection_id: work.connectionId,
      },
    };
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
        data: {
          lead_id: work.leadId,
          crm_type: sync.crm_type,
          connection_id: work.connectionId,
          error,
          permanent: !exhausted,
          attempts: attempt,
          failed_at: done,
        },
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
  state.syncs.set(sync._id, sync);
  state.changed.add(sync._id);
  state.effects.set(work.leadId, [...(state.effects.get(work.leadId) ?? []), effect]);
}

/** The leads' crm fields, with their events and retries as the lead's outputs; the syncs to the crm_syncs collection. */
function collectLeadWrites(
  deps: Pick<SyncLeadsToCrmDeps, 'now'>,
  state: CrmSyncBatch,
  works: CrmWork[],
  leadOnly: LeadOnly[],
  write: BatchWrite,
  enteredAt: Date,
): void {
  const { batch, syncs, changed, effects } = state;
  const leadIds = new Map<string, TenantContext>();
  for (const id of changed) {
    const sync = syncs.get(id)!;
    leadIds.set(sync.lead_id, { organizationId: sync.organization_id, environment: sync.environment });
  }
  const at = deps.now().toISOString();
  for (const [leadId, tenant] of leadIds) {
    const lead = batch.get(tenant, leadId);
    const leadEffects = effects.get(leadId) ?? [];
    const outputs: OutputRecord[] = [];
    for (const effect of leadEffects) {
      if (effect.event && lead)
        outputs.push(withTraceHeaders(eventOutput(lead, effect.event.name, effect.event.data, at), effect.trace));
      if (effect.retry) {
        const retry = withTraceHeaders(effect.retry, effect.trace);
        if (lead) outputs.push(retry);
        else write.records.push(retry);
      }
    }
    if (!lead) continue;
    const ofLead = [...syncs.values()].filter(
      (sync) =>
        sync.lead_id === leadId &&
        sync.organization_id === tenant.organizationId &&
        sync.environment === tenant.environment,
    );
    const fields = leadCrmFields(ofLead);
    const routedIds = works
      .filter((work) => work.kind === 'routed' && work.leadId === leadId)
      .map((work) => work.messageId);
    const applied = [...new Set([...lead.applied_messages, ...routedIds])];
    const same =
      lead.crm_sync_status === fields.crm_sync_status &&
      lead.crm_id === fields.crm_id &&
      lead.crm_synced_at === fields.crm_synced_at &&
      applied.length === lead.applied_messages.length;
    if (same && outputs.length === 0 && !ofLead.some((sync) => changed.has(sync._id))) continue;
    const stored: Record<string, CrmSyncRecord> = {};
    for (const sync of ofLead) stored[sync.connection_id] = sync;
    const next = { ...lead, ...fields, crm_syncs: stored, updated_at: at, applied_messages: applied };
    // Attempts settled in this batch: the lead's crm_synced timeline entry (docs/timeline.md).
    const attempted = leadEffects.some((effect) => effect.event || effect.retry);
    batch.put(attempted ? withCrmSyncedEntry(next, ofLead, enteredAt, new Date(at)) : next, outputs);
  }
  for (const only of leadOnly) {
    const lead = batch.get(only.tenant, only.leadId);
    if (!lead || lead.applied_messages.includes(only.messageId)) continue;
    batch.put(
      {
        ...lead,
        crm_sync_status: 'not_applicable',
        updated_at: at,
        applied_messages: [...lead.applied_messages, only.messageId],
      },
      [],
    );
  }
  if (changed.size > 0)
    write.documents.push({
      collection: CrmSyncRepository.COLLECTION,
      operations: [...changed].map((id) => CrmSyncRepository.saveOperation(syncs.get(id)!)),
    });
}

/** How long an outbox is taken to belong to a writer still producing it (as in lead-stage.ts). */
const OUTBOX_IN_FLIGHT_MS = 5_000;

/**
 * Waits until no lead of the batch has an outbox its writer (the route stage) is still producing:
 * on FerretDB a conditional update is not atomic, so that writer's clear and this batch's write
 * could both apply and the later undo the other (lead-stage.ts does the same for the lead stages).
 */
async function waitForInFlightOutboxes(
  leads: Pick<LeadRepository, 'findManyById'>,
  batch: LeadBatch,
  wanted: Array<{ tenant: TenantContext; id: string }>,
  applied: ReadonlySet<string>,
): Promise<void> {
  const started = Date.now();
  for (;;) {
    const waiting = new Set(batch.inFlight(Date.now(), OUTBOX_IN_FLIGHT_MS, applied));
    if (waiting.size === 0 || Date.now() - started > OUTBOX_IN_FLIGHT_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
    const fresh = await LeadBatch.prefetch(
      leads,
      wanted.filter((entry) => waiting.has(entry.id)),
    );
    batch.refresh(fresh.all());
  }
}

/** The sync actors a lead holds, by connection id. */
function syncsOfLead(lead: LeadRecord): Record<string, CrmSyncRecord> {
  const value = lead['crm_syncs'];
  return typeof value === 'object' && value !== null ? (value as Record<string, CrmSyncRecord>) : {};
}

function newSync(
  work: CrmWork,
  lead: LeadRecord,
  connection: CrmConnectionRecord | undefined,
  existingForLead: number,
  at: string,
): CrmSyncRecord {
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
