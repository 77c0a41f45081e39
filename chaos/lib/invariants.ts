/**
 * The checks of a run, over what it observed once the pipeline had drained: the leads as stored,
 * every event on leads.events, the activity log, what the webhook receiver and the CRM recorded,
 * the dead-letter topics, and the answers of the load. Each check reports its counts and, when it
 * fails, a few offending items.
 */
import type { DocumentStore } from '@leadstream/ports';
import type { LoadGenerator } from './load';
import type { CrmRecord, ReceivedDelivery } from './receivers';
import type { Report } from './report';

export interface StoredLead {
  _id: string;
  email: string;
  status: string;
  crm_sync_status: string;
  crm_id: string | null;
}

export interface SeenEvent {
  id: string;
  event: string;
  leadId: string | null;
}

/**
 * The events of one `leads.events` record of the tenant: a record holds one event envelope or an
 * array of the events one batch produced for one lead (docs/api-conventions.md "Events").
 */
export function seenEvents(value: string, organizationId: string): SeenEvent[] {
  const parsed = JSON.parse(value) as RecordEvent | RecordEvent[];
  return (Array.isArray(parsed) ? parsed : [parsed])
    .filter((event) => event.organization_id === organizationId)
    .map((event) => ({ id: event.id, event: event.event, leadId: event.data.lead_id ?? event.data.lead?.id ?? null }));
}

interface RecordEvent {
  id: string;
  event: string;
  organization_id: string;
  data: { lead_id?: string; lead?: { id?: string } };
}

export interface ActivityEntry {
  _id: string;
  lead_id: string;
  event: string;
}

export interface Observations {
  half: string;
  load: LoadGenerator;
  /** Every acknowledged lead: the load's and the probes'. */
  acknowledged: Map<string, string>;
  leads: StoredLead[];
  events: SeenEvent[];
  activity: ActivityEntry[];
  deliveries: ReceivedDelivery[];
  webhookEvents: readonly string[];
  crm: { calls: number; refused: number; records: CrmRecord[] };
  deadLetters: Array<{ topic: string; count: number; examples: string[] }>;
}

/**
 * What both halves read from the store once the pipeline has drained: the tenant's leads and
 * activity entries (the fields the checks use), and the webhook delivery log as a figure.
 */
export async function readStoredObservations(
  store: DocumentStore,
  organizationId: string,
  report: Report,
  half: string,
): Promise<Pick<Observations, 'leads' | 'activity'>> {
  const leads = (
    await store.collection<StoredLead & { organization_id: string }>('leads').find({ organization_id: organizationId })
  ).map(({ _id, email, status, crm_sync_status, crm_id }) => ({ _id, email, status, crm_sync_status, crm_id }));
  const activity = (
    await store
      .collection<ActivityEntry & { organization_id: string }>('lead_activity')
      .find({ organization_id: organizationId })
  ).map(({ _id, lead_id, event }) => ({ _id, lead_id, event }));
  report.figure(
    half,
    'webhook delivery log',
    describeDeliveryRetries(
      await store.collection<DeliveryLog>('webhook_deliveries').find({ organization_id: organizationId }),
    ),
  );
  return { leads, activity };
}

/** The events every accepted lead routed to a CRM has, once each. */
export const LEAD_EVENT_KINDS = ['lead.created', 'lead.validated', 'lead.accepted', 'lead.routed', 'lead.crm_synced'];
/** The kinds the activity log records among those (docs/pipeline.md: lead.accepted has no entry). */
const ACTIVITY_KINDS = ['lead.created', 'lead.validated', 'lead.routed', 'lead.crm_synced'];

function group<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

export function checkInvariants(report: Report, o: Observations): void {
  const { half, acknowledged } = o;
  const leadsById = new Map(o.leads.map((lead) => [lead._id, lead]));

  // 1. Every acknowledged lead is stored, once: its id is there with the email sent, and no person
  //    (email) is stored under two ids.
  {
    const missing = [...acknowledged]
      .filter(([id]) => !leadsById.has(id))
      .map(([id, email]) => `${id} (${email}) acknowledged but not stored`);
    const wrong = [...acknowledged]
      .filter(([id, email]) => leadsById.has(id) && leadsById.get(id)!.email.toLowerCase() !== email.toLowerCase())
      .map(([id, email]) => `${id}: sent ${email}, stored ${leadsById.get(id)!.email}`);
    const twice = [...group(o.leads, (lead) => lead.email.toLowerCase())]
      .filter(([, leads]) => leads.length > 1)
      .map(([email, leads]) => `${email} stored ${leads.length} times: ${leads.map((lead) => lead._id).join(', ')}`);
    const notAccepted = [...acknowledged.keys()]
      .filter((id) => leadsById.has(id) && leadsById.get(id)!.status !== 'active')
      .map((id) => `${id} is ${leadsById.get(id)!.status}`);
    report.invariant(
      half,
      'every acknowledged lead is stored exactly once',
      missing.length + wrong.length + twice.length + notAccepted.length === 0,
      `${acknowledged.size} acknowledged (${o.load.singles} single requests, ${o.load.leadsInBatches} leads in ${o.load.batches} batches, probes included), ${o.leads.length} stored (unacknowledged sends may be stored too); missing ${missing.length}, stored twice ${twice.length}, wrong email ${wrong.length}, not accepted ${notAccepted.length}`,
      [...missing, ...twice, ...wrong, ...notAccepted],
    );
  }

  // 2. One event id per kind for every lead; every acknowledged lead has each of its events.
  const eventsByLead = group(
    o.events.filter((event) => event.leadId !== null),
    (event) => event.leadId!,
  );
  {
    const twoIds: string[] = [];
    for (const [leadId, events] of eventsByLead) {
      for (const [kind, ofKind] of group(events, (event) => event.event)) {
        const ids = new Set(ofKind.map((event) => event.id));
        if (ids.size > 1) twoIds.push(`${leadId}: ${kind} with ${ids.size} ids (${[...ids].join(', ')})`);
      }
    }
    const lacking: string[] = [];
    for (const id of acknowledged.keys()) {
      const kinds = new Set((eventsByLead.get(id) ?? []).map((event) => event.event));
      const absent = LEAD_EVENT_KINDS.filter((kind) => !kinds.has(kind));
      if (absent.length > 0) lacking.push(`${id} has no ${absent.join(', ')}`);
    }
    const repeated = o.events.length - new Set(o.events.map((event) => event.id)).size;
    report.invariant(
      half,
      'one event id per kind for every lead, and every event of each acknowledged lead',
      twoIds.length + lacking.length === 0,
      `${o.events.length} events on leads.events (${repeated} repeats of an id already there) for ${eventsByLead.size} leads; kinds with two ids ${twoIds.length}; acknowledged leads missing an event ${lacking.length}`,
      [...twoIds, ...lacking],
    );
  }

  // 3. The activity log: an entry per event, never an entry of an event that was not produced.
  {
    const eventIds = new Set(o.events.map((event) => event.id));
    const phantom = o.activity
      .filter((entry) => !eventIds.has(entry._id))
      .map(
        (entry) => `activity entry ${entry._id} (${entry.event} of ${entry.lead_id}) names no event on leads.events`,
      );
    const entryIds = new Set(o.activity.map((entry) => entry._id));
    const unrecorded: string[] = [];
    for (const id of acknowledged.keys()) {
      for (const event of eventsByLead.get(id) ?? [])
        if (ACTIVITY_KINDS.includes(event.event) && !entryIds.has(event.id))
          unrecorded.push(`${id}: ${event.event} ${event.id} has no activity entry`);
    }
    report.invariant(
      half,
      'the activity log has one entry per event of each acknowledged lead',
      phantom.length + unrecorded.length === 0,
      `${o.activity.length} entries; events without an entry ${unrecorded.length}; entries without an event ${phantom.length}`,
      [...unrecorded, ...phantom],
    );
  }

  // 4. Webhooks: every subscribed event delivered at least once; one id per event of a lead.
  {
    const wanted = o.events.filter((event) => o.webhookEvents.includes(event.event));
    const wantedIds = new Set(wanted.map((event) => event.id));
    const receivedIds = new Set(o.deliveries.map((delivery) => delivery.id));
    const undelivered = [...wantedIds]
      .filter((id) => !receivedIds.has(id))
      .map((id) => {
        const event = wanted.find((candidate) => candidate.id === id)!;
        return `${event.event} ${id} of ${event.leadId ?? '-'} never delivered`;
      });
    const twoIds: string[] = [];
    for (const [key, deliveries] of group(
      o.deliveries.filter((delivery) => delivery.leadId !== null),
      (delivery) => `${delivery.leadId!} ${delivery.event}`,
    )) {
      const ids = new Set(deliveries.map((delivery) => delivery.id));
      if (ids.size > 1) twoIds.push(`${key} delivered with ${ids.size} ids: ${[...ids].join(', ')}`);
    }
    const unknown = o.deliveries
      .filter((delivery) => !wantedIds.has(delivery.id))
      .map((delivery) => `delivered ${delivery.event} ${delivery.id}, which is not on leads.events`);
    const refused = o.deliveries
      .filter((delivery) => delivery.problems.length > 0)
      .map((delivery) => `${delivery.event} ${delivery.id}: ${delivery.problems.join('; ')}`);
    const redelivered = o.deliveries.length - receivedIds.size;
    report.invariant(
      half,
      'every webhook event delivered at least once, never with two ids for one event',
      undelivered.length + twoIds.length + unknown.length + refused.length === 0,
      `${wantedIds.size} events to deliver, ${o.deliveries.length} deliveries received (${redelivered} repeats of an event already received); undelivered ${undelivered.length}, two ids for one event ${twoIds.length}, unknown events ${unknown.length}, refused by the receiver's signature or schema check ${refused.length}`,
      [...undelivered, ...twoIds, ...unknown, ...refused],
    );
  }

  // 5. CRM: one record per lead (upserted by its id), never two records for one person, and the
  //    lead says synced with that record's id.
  {
    const byExternal = group(o.crm.records, (record) => record.externalId);
    const absent: string[] = [];
    const mismatch: string[] = [];
    for (const id of acknowledged.keys()) {
      const records = byExternal.get(id) ?? [];
      if (records.length !== 1) absent.push(`${id} has ${records.length} CRM records`);
      const lead = leadsById.get(id);
      if (lead && records.length === 1 && (lead.crm_sync_status !== 'synced' || lead.crm_id !== records[0]!.id))
        mismatch.push(
          `${id}: crm_sync_status ${lead.crm_sync_status}, crm_id ${String(lead.crm_id)}, CRM record ${records[0]!.id}`,
        );
    }
    const people = [...group(o.crm.records, (record) => record.email.toLowerCase())]
      .filter(([, records]) => records.length > 1)
      .map(
        ([email, records]) =>
          `${email} has ${records.length} CRM records (${records.map((record) => record.externalId).join(', ')})`,
      );
    const phantom = o.crm.records
      .filter((record) => !leadsById.has(record.externalId))
      .map((record) => `CRM record ${record.id} for ${record.externalId}, which is not a stored lead`);
    const repeatCalls = o.crm.records.reduce((sum, record) => sum + record.calls - 1, 0);
    const leadsCalledAgain = o.crm.records.filter((record) => record.calls > 1).length;
    report.invariant(
      half,
      'every CRM upsert happens once per lead: one record per lead, one per person',
      absent.length + mismatch.length + people.length + phantom.length === 0,
      `${o.crm.records.length} records for ${acknowledged.size} acknowledged leads from ${o.crm.calls} upsert calls (${repeatCalls} repeated calls for ${leadsCalledAgain} leads, absorbed by the upsert on external_id); acknowledged leads without exactly one record ${absent.length}, people with two records ${people.length}, records of no lead ${phantom.length}, leads not marked synced with their record ${mismatch.length}`,
      [...absent, ...people, ...phantom, ...mismatch],
    );
  }

  // 6. No dead letter: every lead of the run is valid.
  {
    const total = o.deadLetters.reduce((sum, topic) => sum + topic.count, 0);
    report.invariant(
      half,
      'no dead-letter record',
      total === 0,
      `${total} records in ${o.deadLetters.length} dead-letter topics${
        total > 0
          ? `: ${o.deadLetters
              .filter((topic) => topic.count > 0)
              .map((topic) => `${topic.topic} ${topic.count}`)
              .join(', ')}`
          : ''
      }`,
      o.deadLetters.flatMap((topic) => topic.examples.map((example) => `${topic.topic}: ${example}`)),
    );
  }

  // 7. The answers: a valid lead is acknowledged, or refused as retryable (5xx, 429, no answer) in the error format.
  report.invariant(
    half,
    'every refusal of a valid lead is retryable and in the error format',
    o.load.problems.length === 0,
    `answers ${Object.entries(o.load.statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${count}x${status}`)
      .join(' ')}; other refusals or malformed errors ${o.load.problems.length}`,
    o.load.problems,
  );
}

/** What the delivery log says about retries: how many deliveries needed more than one POST, and why the failed ones failed. */
/** A delivery as the store keeps it, the fields read here. */
export interface DeliveryLog {
  _id: string;
  status: string;
  attempt_log?: Array<{ error: string | null; response_status: number | null }>;
}

export function describeDeliveryRetries(deliveries: DeliveryLog[]): string {
  const retried = deliveries.filter((delivery) => (delivery.attempt_log?.length ?? 0) > 1);
  const reasons: Record<string, number> = {};
  for (const delivery of deliveries) {
    for (const attempt of delivery.attempt_log ?? []) {
      if (attempt.error === null && attempt.response_status !== null && attempt.response_status < 300) continue;
      const reason = (attempt.error ?? `HTTP ${String(attempt.response_status)}`).slice(0, 60);
      reasons[reason] = (reasons[reason] ?? 0) + 1;
    }
  }
  const statuses: Record<string, number> = {};
  for (const delivery of deliveries) statuses[delivery.status] = (statuses[delivery.status] ?? 0) + 1;
  const failed = Object.entries(reasons).map(([reason, count]) => `${count}x ${reason}`);
  return `${deliveries.length} deliveries (${Object.entries(statuses)
    .map(([status, count]) => `${count} ${status}`)
    .join(
      ', ',
    )}); ${retried.length} took more than one attempt${failed.length > 0 ? `; failed attempts: ${failed.join(', ')}` : ''}`;
}
