/**
 * The crm-sync stage on the embedded engines against a CRM on loopback (crm-fakes.test-support:
 * Salesforce, HubSpot and generic JSON shapes, no HTTP mocks): retry then success through the
 * delay topics, Retry-After, a 401 that refreshes the token, permanent failures, a used-up
 * schedule, the sandbox, and idempotency (redelivered and manual syncs leave one CRM record).
 * The retry topics are made without their delay here: the test hands their records over itself.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { CrmConnectionRepository, CrmSyncRepository, LeadRepository } from '@leadstream/dal';
import {
  crmSyncId,
  parseCrmConnectionInput,
  parseCrmRetrySchedule,
  startLead,
  type CrmConnectionRecord,
  type CrmSyncRecord,
  type LeadRecord,
  type SalesforceCredentials,
} from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import {
  CRM_SYNC_REQUESTS_TOPIC,
  crmCredentialsContext,
  CredentialsCipher,
  CrmClient,
  StoredRefreshTokens,
  type CrmManualSyncMessage,
} from '@leadstream/runtime';
import { eventPayloadProblems, parseLeadEvents, type LeadRoutedMessage } from '@leadstream/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchStage } from '../batch/batch-stage';
import type { BatchWriter } from '../batch/batch-write';
import { OutboxBatchWriter } from '../batch/outbox-batch-writer';
import {
  FAKE_HUBSPOT_TOKEN,
  FAKE_SALESFORCE,
  FAKE_WEBHOOK_AUTH,
  startFakeCrm,
  type FakeCrm,
} from '../crm/crm-fakes.test-support';
import { useEmbeddedEngines } from '../test-support/embedded-engines';
import { driveStage } from '../test-support/stage-driver';
import { activityStage } from './activity.stage';
import { crmSyncStage, LEADS_ROUTED_TOPIC } from './crm-sync.stage';

const ORG = 'org_crm';
const engines = useEmbeddedEngines('crm-sync-stage');
const cipher = new CredentialsCipher(randomBytes(32));
const SCHEDULE = parseCrmRetrySchedule('1s,2s,3s');
let fake: FakeCrm;
let stage: BatchStage;
let clock = Date.parse('2026-03-01T10:00:00.000Z');

beforeEach(async () => {
  fake = await startFakeCrm();
  clock = Date.parse('2026-03-01T10:00:00.000Z');
  const topics = [LEADS_ROUTED_TOPIC, CRM_SYNC_REQUESTS_TOPIC, ...SCHEDULE.map((step) => `crm.retry.${step.name}`)];
  await engines.log.ensureTopics(
    topics.flatMap((topic) => [topic, `${topic}.dlq`]).map((topic) => ({ topic, partitions: 1 })),
  );
  await CrmSyncRepository.ensureIndexes(engines.store);
  stage = crmSyncStage({
    leads: new LeadRepository(engines.store),
    connections: new CrmConnectionRepository(engines.store),
    cipher,
    client: new CrmClient({ timeoutMs: 2_000, allowInsecureTargets: true, now: () => clock }),
    schedule: SCHEDULE,
    now: () => new Date(clock),
  });
});

afterEach(async () => {
  await fake.close();
});

async function connection(body: Record<string, unknown>, enabled = true): Promise<string> {
  const parsed = parseCrmConnectionInput(body);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.details));
  const id = `crm_${randomUUID().replace(/-/g, '')}`;
  const record: CrmConnectionRecord = {
    _id: id,
    organization_id: ORG,
    environment: 'live',
    name: parsed.input.name,
    type: parsed.input.type,
    enabled,
    settings_json: JSON.stringify(parsed.input.settings),
    credentials_encrypted: cipher.encryptJson(parsed.input.credentials, crmCredentialsContext(ORG, id)),
    credential_fields: [],
    created_at: '2026-03-01T00:00:00.000Z',
    updated_at: '2026-03-01T00:00:00.000Z',
  };
  await new CrmConnectionRepository(engines.store).insert(record);
  return id;
}

const salesforce = () =>
  connection({
    name: 'SF',
    type: 'salesforce',
    settings: { instance_url: fake.url },
    credentials: { client_id: FAKE_SALESFORCE.clientId, client_secret: FAKE_SALESFORCE.clientSecret },
  });
const hubspot = () =>
  connection({
    name: 'HS',
    type: 'hubspot',
    settings: { base_url: fake.url, portal_id: '777' },
    credentials: { private_app_token: FAKE_HUBSPOT_TOKEN },
  });
const webhook = () =>
  connection({
    name: 'Hook',
    type: 'webhook_json',
    settings: { url: `${fake.url}/hook`, record_url_template: 'https://crm.example.com/r/{crm_id}' },
    credentials: { auth_value: FAKE_WEBHOOK_AUTH },
  });

async function storeLead(environment: 'live' | 'sandbox' = 'live'): Promise<LeadRecord> {
  const id = `lead_${randomUUID().replace(/-/g, '')}`;
  const at = new Date(clock).toISOString();
  const lead: LeadRecord = {
    _id: id,
    organization_id: ORG,
    environment,
    vendor_id: 'vendor-1',
    status: 'active',
    email: `${id.slice(5, 15)}@example.edu`,
    first_name: 'Grace',
    last_name: 'Hopper',
    phone: null,
    source: 'fair',
    program: null,
    program_interest: 'CS',
    ip_address: null,
    user_agent: null,
    landing_page: null,
    referrer: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    utm_term: null,
    utm_content: null,
    custom_fields: {},
    enrichment_data: {},
    validation_status: 'passed',
    enrichment_status: 'completed',
    duplicate_of: null,
    similarity_score: null,
    crm_sync_status: environment === 'sandbox' ? 'not_applicable' : 'pending',
    crm_id: null,
    crm_synced_at: null,
    flags: [],
    warnings: [],
    rejection_reason: null,
    rule_id: null,
    dedup_key: id,
    bk_email: null,
    bk_phone: null,
    bk_name: null,
    dedup_status: 'unique',
    submitted_at: at,
    processed_at: at,
    created_at: at,
    updated_at: at,
    deleted_at: null,
    expires_at: null,
    actor: startLead(id),
    version: 3,
    applied_messages: [],
    outbox: [],
  };
  await engines.store.collection<LeadRecord>('leads').insertOne(lead);
  return lead;
}

function routed(lead: LeadRecord, connectionIds: string[]): LeadRoutedMessage {
  return {
    schema_version: 1,
    message_id: `msg_${randomUUID().replace(/-/g, '')}>validate>dedup>enrich>route`,
    correlation_id: 'corr_1',
    lead_id: lead._id,
    organization_id: ORG,
    environment: lead.environment,
    vendor_id: 'vendor-1',
    submitted_at: lead.submitted_at,
    route: {
      rule_id: null,
      reason: 'default',
      targets: connectionIds.map((id) => ({ connection_id: id, owner: null, queue: null })),
      routed_at: lead.submitted_at,
    },
  };
}

/** Produces the messages and hands them to the stage under the group of their topic, as its consumers do. */
const seen = new Map<string, number>();
async function deliver(topic: string, values: unknown[]): Promise<LogRecord[]> {
  if (values.length > 0)
    await engines.log.produce(
      topic,
      values.map((value) => ({ key: (value as { lead_id: string }).lead_id, value: JSON.stringify(value) })),
    );
  return handOver(topic);
}
async function handOver(
  topic: string,
  again?: LogRecord[],
  writer: BatchWriter = engines.writer,
): Promise<LogRecord[]> {
  const all = await readTopic(engines.log, topic);
  const records = again ?? all.slice(seen.get(topic) ?? 0);
  seen.set(topic, all.length);
  if (records.length === 0) return [];
  const group =
    topic === LEADS_ROUTED_TOPIC || topic === CRM_SYNC_REQUESTS_TOPIC
      ? stage
      : { ...stage, name: `crm-sync.${topic.slice(4)}`, topic };
  await driveStage({ ...group, topic }, writer).handle(records);
  return records;
}
/** The retries the stage scheduled since the last call, per step. */
async function retries(): Promise<Record<string, Array<{ attempt: number }>>> {
  const found: Record<string, Array<{ attempt: number }>> = {};
  for (const step of SCHEDULE) {
    const topic = `crm.retry.${step.name}`;
    const fresh = (await readTopic(engines.log, topic)).slice(seen.get(topic) ?? 0);
    if (fresh.length > 0) found[step.name] = fresh.map((record) => JSON.parse(record.value) as { attempt: number });
  }
  return found;
}

const leadNow = async (lead: LeadRecord) =>
  (await new LeadRepository(engines.store).findById({ organizationId: ORG, environment: lead.environment }, lead._id))!;
const syncOf = async (lead: LeadRecord, connectionId: string) =>
  (await new CrmSyncRepository(engines.store).findById(
    { organizationId: ORG, environment: 'live' },
    crmSyncId(lead._id, connectionId),
  )) as CrmSyncRecord;
const events = async (name?: string) =>
  (await readTopic(engines.log, 'leads.events'))
    .flatMap((record) => parseLeadEvents(record.value))
    .filter((event) => name === undefined || event.event === name);
beforeEach(() => seen.clear());
afterEach(async () => {
  // Every event the stage emitted has the payload its JSON Schema describes (schemas/messages/event-payloads.schema.json).
  for (const event of await events()) expect(eventPayloadProblems(event), event.event).toEqual([]);
});

describe('the crm-sync stage', () => {
  it('Salesforce: a 503 schedules a retry on the first delay topic; the retry upserts the Lead once and the lead shows synced', async () => {
    const sf = await salesforce();
    const lead = await storeLead();
    fake.fail('/services/data', {
      status: 503,
      body: [{ message: 'Server is busy', errorCode: 'SERVER_UNAVAILABLE' }],
    });
    const [routedRecord] = await deliver(LEADS_ROUTED_TOPIC, [routed(lead, [sf])]);

    expect(await syncOf(lead, sf)).toMatchObject({
      status: 'retry_scheduled',
      attempts: 1,
      last_error: 'HTTP 503: SERVER_UNAVAILABLE: Server is busy',
      next_attempt_at: '2026-03-01T10:00:01.000Z',
    });
    expect(await leadNow(lead)).toMatchObject({ crm_sync_status: 'pending', crm_id: null });
    expect(await retries()).toEqual({
      '1s': [expect.objectContaining({ attempt: 2, step: '1s', sync_id: crmSyncId(lead._id, sf) })],
    });

    clock += 1_000;
    await handOver('crm.retry.1s');
    const record = fake.records.salesforce.get(lead._id);
    expect(record).toMatchObject({
      fields: {
        FirstName: 'Grace',
        LastName: 'Hopper',
        Email: lead.email,
        LeadSource: 'fair',
        Company: '[not provided]',
      },
      writes: 1,
    });
    expect(record?.id).toEqual(expect.any(String));
    const id = record!.id;
    expect(await leadNow(lead)).toMatchObject({
      crm_sync_status: 'synced',
      crm_id: id,
      crm_synced_at: '2026-03-01T10:00:01.000Z',
    });
    expect((await events('lead.crm_synced')).map((event) => event.data)).toEqual([
      {
        lead_id: lead._id,
        crm_type: 'salesforce',
        crm_id: id,
        crm_record_url: `${fake.url}/${id}`,
        synced_at: '2026-03-01T10:00:01.000Z',
        connection_id: sf,
      },
    ]);

    // The same routed message and the same retry delivered again: nothing is called, nothing changes.
    const calls = fake.requests.length;
    await handOver(LEADS_ROUTED_TOPIC, [routedRecord!]);
    await handOver('crm.retry.1s', (await readTopic(engines.log, 'crm.retry.1s')).slice(0, 1));
    expect(fake.requests.length).toBe(calls);
    expect(await events('lead.crm_synced')).toHaveLength(1);

    // A manual sync after the session expired: one fresh token, the same record updated.
    fake.revokeTokens();
    const manual: CrmManualSyncMessage = {
      schema_version: 1,
      kind: 'manual',
      message_id: 'crmreq_1',
      sync_id: crmSyncId(lead._id, sf),
      lead_id: lead._id,
      connection_id: sf,
      organization_id: ORG,
      environment: 'live',
      requested_by: 'usr_1',
      requested_at: new Date(clock).toISOString(),
    };
    await deliver(CRM_SYNC_REQUESTS_TOPIC, [manual]);
    expect(fake.tokensIssued).toBe(2);
    expect(fake.records.salesforce.size).toBe(1);
    expect(fake.records.salesforce.get(lead._id)?.writes).toBe(2);
    expect(await syncOf(lead, sf)).toMatchObject({ status: 'synced', crm_id: id, attempts: 1 });
    expect(await events('lead.crm_synced')).toHaveLength(2);
  });

  it('HubSpot: a 429 whose Retry-After is longer than the next step waits on a longer delay topic', async () => {
    const hs = await hubspot();
    const lead = await storeLead();
    fake.fail('/crm/v3', {
      status: 429,
      body: { status: 'error', message: 'You have reached your secondly limit.', category: 'RATE_LIMITS' },
      headers: { 'retry-after': '2' },
    });
    await deliver(LEADS_ROUTED_TOPIC, [routed(lead, [hs])]);
    expect(await retries()).toEqual({ '2s': [expect.objectContaining({ attempt: 2 })] });
    clock += 2_000;
    await handOver('crm.retry.2s');
    const contact = fake.records.hubspot.get(lead.email);
    expect(contact).toMatchObject({ fields: { email: lead.email, firstname: 'Grace', lastname: 'Hopper' }, writes: 1 });
    expect(contact?.id).toEqual(expect.any(String));
    expect(await leadNow(lead)).toMatchObject({ crm_sync_status: 'synced', crm_id: contact!.id });
    expect((await events('lead.crm_synced'))[0]?.data['crm_record_url']).toBe(
      `https://app.hubspot.com/contacts/777/record/0-1/${contact!.id}`,
    );
  });

  it('Salesforce: leads that meet a used-up daily API allowance (403 REQUEST_LIMIT_EXCEEDED) wait on the longest delay instead of failing for good', async () => {
    const sf = await salesforce();
    const leads = [await storeLead(), await storeLead()];
    fake.salesforce.apiCallsLeft = 0;
    await deliver(
      LEADS_ROUTED_TOPIC,
      leads.map((lead) => routed(lead, [sf])),
    );
    for (const lead of leads) {
      expect(await syncOf(lead, sf)).toMatchObject({
        status: 'retry_scheduled',
        attempts: 1,
        last_error: 'HTTP 403: REQUEST_LIMIT_EXCEEDED: TotalRequests Limit exceeded.',
      });
      expect((await leadNow(lead)).crm_sync_status).toBe('pending');
    }
    // An hour asked for: longer than every step of this schedule, so its last one.
    expect(await retries()).toEqual({
      '3s': [expect.objectContaining({ attempt: 2 }), expect.objectContaining({ attempt: 2 })],
    });
    expect(await events('lead.crm_sync_failed')).toEqual([]);
    fake.salesforce.apiCallsLeft = null;
    clock += 3_000;
    await handOver('crm.retry.3s');
    for (const lead of leads)
      expect(await leadNow(lead)).toMatchObject({
        crm_sync_status: 'synced',
        crm_id: fake.records.salesforce.get(lead._id)?.id,
      });
  });

  it('Salesforce: stores the refresh token a rotating connected app answers with its connection, which the next refresh sends', async () => {
    fake.salesforce.rotateRefreshTokens = true;
    const connections = new CrmConnectionRepository(engines.store);
    const sf = await connection({
      name: 'SF',
      type: 'salesforce',
      settings: { instance_url: fake.url, grant_type: 'refresh_token' },
      credentials: {
        client_id: FAKE_SALESFORCE.clientId,
        client_secret: FAKE_SALESFORCE.clientSecret,
        refresh_token: FAKE_SALESFORCE.refreshToken,
      },
    });
    // As the crm-sync runner builds it: rotated refresh tokens go back to the stored connection.
    const client = () =>
      new CrmClient({
        timeoutMs: 2_000,
        allowInsecureTargets: true,
        now: () => clock,
        refreshTokens: new StoredRefreshTokens(connections, cipher),
      });
    stage = crmSyncStage({
      leads: new LeadRepository(engines.store),
      connections,
      cipher,
      client: client(),
      schedule: SCHEDULE,
      now: () => new Date(clock),
    });
    const first = await storeLead();
    await deliver(LEADS_ROUTED_TOPIC, [routed(first, [sf])]);
    expect((await leadNow(first)).crm_sync_status).toBe('synced');
    const stored = await connections.findById({ organizationId: ORG, environment: 'live' }, sf);
    expect(
      cipher.decryptJson<SalesforceCredentials>(stored!.credentials_encrypted, crmCredentialsContext(ORG, sf))
        .refresh_token,
    ).toBe('sf-refresh-1');
    // Another crm-sync process (a new client, no token yet) refreshes with the stored token.
    stage = crmSyncStage({
      leads: new LeadRepository(engines.store),
      connections,
      cipher,
      client: client(),
      schedule: SCHEDULE,
      now: () => new Date(clock),
    });
    const second = await storeLead();
    await deliver(LEADS_ROUTED_TOPIC, [routed(second, [sf])]);
    expect((await leadNow(second)).crm_sync_status).toBe('synced');
    expect(fake.salesforce.refreshTokensSent).toEqual([FAKE_SALESFORCE.refreshToken, 'sf-refresh-1']);
  });

  it('fails at once on a permanent error with the CRM message, and after the last step of the schedule', async () => {
    const hs = await hubspot();
    const hook = await webhook();
    const refused = await storeLead();
    fake.fail('/crm/v3', {
      status: 400,
      body: { status: 'error', message: 'Property values were not valid: phone', category: 'VALIDATION_ERROR' },
    });
    await deliver(LEADS_ROUTED_TOPIC, [routed(refused, [hs])]);
    expect(await syncOf(refused, hs)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'HTTP 400: Property values were not valid: phone',
    });
    expect(await leadNow(refused)).toMatchObject({ crm_sync_status: 'failed', crm_id: null });
    expect(await retries()).toEqual({});

    const down = await storeLead();
    fake.fail('/hook', { status: 500, body: { error: 'down' } }, 4);
    await deliver(LEADS_ROUTED_TOPIC, [routed(down, [hook])]);
    for (const step of SCHEDULE) {
      expect(Object.keys(await retries())).toEqual([step.name]);
      clock += step.delayMs;
      await handOver(`crm.retry.${step.name}`);
    }
    expect(await syncOf(down, hook)).toMatchObject({
      status: 'failed',
      attempts: 4,
      last_error: 'HTTP 500: down (gave up after 4 attempts)',
    });
    expect(fake.records.webhook.size).toBe(0);
    // The activity stage records both outcomes in the leads' timelines.
    await driveStage(activityStage(), engines.writer).handle(await readTopic(engines.log, 'leads.events'));
    const timeline = await engines.store
      .collection('lead_activity')
      .find({ lead_id: { $in: [refused._id, down._id] } });
    expect(timeline.map((entry) => [entry['lead_id'], entry['event'], entry['description']])).toEqual(
      expect.arrayContaining([
        [refused._id, 'lead.crm_sync_failed', 'CRM sync failed'],
        [down._id, 'lead.crm_sync_failed', 'CRM sync failed'],
      ]),
    );
    expect((await events('lead.crm_sync_failed')).map((event) => event.data)).toEqual([
      {
        lead_id: refused._id,
        crm_type: 'hubspot',
        connection_id: hs,
        error: 'HTTP 400: Property values were not valid: phone',
        permanent: true,
        attempts: 1,
        failed_at: '2026-03-01T10:00:00.000Z',
      },
      {
        lead_id: down._id,
        crm_type: 'webhook_json',
        connection_id: hook,
        error: 'HTTP 500: down (gave up after 4 attempts)',
        permanent: false,
        attempts: 4,
        failed_at: '2026-03-01T10:00:06.000Z',
      },
    ]);
  });

  it('syncs a lead to every target once, keeps the first target as crm_id, and never calls for sandbox leads or leads with no target', async () => {
    const hook = await webhook();
    const hs = await hubspot();
    const lead = await storeLead();
    const sandbox = await storeLead('sandbox');
    const unrouted = await storeLead();
    await deliver(LEADS_ROUTED_TOPIC, [routed(lead, [hook, hs]), routed(sandbox, [hook]), routed(unrouted, [])]);
    const record = fake.records.webhook.get(lead._id);
    expect(record).toMatchObject({
      writes: 1,
      fields: { external_id: lead._id, lead: expect.objectContaining({ id: lead._id, email: lead.email }) },
    });
    expect(
      fake.requests.filter((request) => request.path === '/hook').map((request) => request.headers['idempotency-key']),
    ).toEqual([lead._id]);
    expect(fake.records.hubspot.size).toBe(1);
    expect(await leadNow(lead)).toMatchObject({ crm_sync_status: 'synced', crm_id: record?.id });
    expect((await leadNow(sandbox)).crm_sync_status).toBe('not_applicable');
    expect((await leadNow(unrouted)).crm_sync_status).toBe('not_applicable');
    expect(
      await engines.store.collection('crm_syncs').countDocuments({ lead_id: { $in: [sandbox._id, unrouted._id] } }),
    ).toBe(0);
  });

  it('decides a batch again after a lead was written meanwhile, on the outbox writer, without calling the CRM twice or losing the retry', async () => {
    const hook = await webhook();
    const lead = await storeLead();
    fake.fail('/hook', { status: 502, body: { error: 'bad gateway' } });
    // Where the store and the log are different systems: syncs (documents) are stored before the lead.
    const outbox: BatchWriter = new OutboxBatchWriter(engines.store, engines.log, () => new Date(clock));
    let interfered = false;
    const meddling: BatchWriter = {
      atomic: false,
      async commit(write, position) {
        if (!interfered) {
          interfered = true;
          // Someone (a user's PATCH, another crm-sync group) writes the lead between the read and this write.
          await engines.store
            .collection<LeadRecord>('leads')
            .updateOne({ _id: lead._id }, { $set: { program: 'Math' }, $inc: { version: 1 } });
        }
        await outbox.commit(write, position);
      },
    };
    await engines.log.produce(LEADS_ROUTED_TOPIC, [{ key: lead._id, value: JSON.stringify(routed(lead, [hook])) }]);
    await handOver(LEADS_ROUTED_TOPIC, undefined, meddling);
    expect(interfered).toBe(true);
    expect(fake.requests.filter((request) => request.path === '/hook')).toHaveLength(1);
    expect(await leadNow(lead)).toMatchObject({
      program: 'Math',
      crm_sync_status: 'pending',
      crm_syncs: { [hook]: expect.objectContaining({ status: 'retry_scheduled', attempts: 1 }) },
    });
    expect(await retries()).toEqual({ '1s': [expect.objectContaining({ attempt: 2 })] });
    clock += 1_000;
    await handOver('crm.retry.1s');
    expect(fake.records.webhook.get(lead._id)?.writes).toBe(1);
    expect(await leadNow(lead)).toMatchObject({
      crm_sync_status: 'synced',
      crm_id: fake.records.webhook.get(lead._id)?.id,
    });
  });
});
