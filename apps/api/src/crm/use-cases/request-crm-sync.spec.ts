/**
 * POST /api/crm/:id/sync/:leadId as a use case, on the embedded store: what is produced for a
 * manual sync, and the answers when it cannot be queued (a log that refuses the produce, a
 * connection disabled), branches the route tests do not reach.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrmConnectionRepository, CrmSyncRepository, LeadRepository } from '@leadstream/dal';
import {
  crmSyncId,
  isDomainError,
  startLead,
  type CrmConnectionRecord,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import { CRM_SYNC_REQUESTS_TOPIC } from '@leadstream/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestCrmSync, type RequestCrmSyncDeps } from './request-crm-sync';

const tenant: TenantContext = { organizationId: 'org_crm_request', environment: 'live' };
const NOW = new Date('2026-03-02T10:00:00.000Z');
const actor = { id: 'user_requester' };

let dir: string;
let store: DocumentStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'request-crm-sync-'));
  store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const hex = (): string => randomUUID().replace(/-/g, '');

async function storedLead(): Promise<LeadRecord> {
  const id = `lead_${hex()}`;
  const at = '2026-03-01T09:00:00.000Z';
  const lead = {
    _id: id,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    vendor_id: 'vendor_1',
    status: 'active',
    email: `${id}@example.com`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: null,
    custom_fields: {},
    enrichment_data: {},
    flags: [],
    warnings: [],
    submitted_at: at,
    processed_at: at,
    created_at: at,
    updated_at: at,
    deleted_at: null,
    expires_at: null,
    actor: startLead(id),
    version: 1,
    applied_messages: [],
    outbox: [],
  } as unknown as LeadRecord;
  await new LeadRepository(store).insert(lead);
  return lead;
}

async function storedConnection(enabled: boolean): Promise<CrmConnectionRecord> {
  const at = '2026-03-01T08:00:00.000Z';
  const record: CrmConnectionRecord = {
    _id: `crm_${hex()}`,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    name: 'Receiver',
    type: 'webhook_json',
    enabled,
    settings_json: JSON.stringify({ url: 'https://crm.example.com/leads' }),
    credentials_encrypted: '',
    credential_fields: [],
    created_at: at,
    updated_at: at,
  };
  await new CrmConnectionRepository(store).insert(record);
  return record;
}

/** An event log that keeps what is produced, or refuses every produce with `failure`. */
function recordingLog(failure?: Error): {
  log: Pick<EventLog, 'produce'>;
  produced: Array<{ topic: string; key: string | null; value: string }>;
} {
  const produced: Array<{ topic: string; key: string | null; value: string }> = [];
  return {
    produced,
    log: {
      produce: async (topic, records) => {
        if (failure) throw failure;
        for (const record of records) produced.push({ topic, key: record.key ?? null, value: record.value });
        return records.map((_record, index) => ({
          topic,
          partition: 0,
          offset: String(produced.length - records.length + index),
        }));
      },
    },
  };
}

function deps(log: Pick<EventLog, 'produce'>): RequestCrmSyncDeps {
  return {
    connections: new CrmConnectionRepository(store),
    leads: new LeadRepository(store),
    syncs: new CrmSyncRepository(store),
    log,
    clock: () => NOW,
  };
}

class BrokerNotAvailableError extends Error {
  override name = 'BrokerNotAvailableError';
}

describe('requestCrmSync', () => {
  it('produces one manual sync message keyed by lead id, naming the requester, and answers the sync id with no previous sync', async () => {
    const [lead, connection] = await Promise.all([storedLead(), storedConnection(true)]);
    const { log, produced } = recordingLog();

    const result = await requestCrmSync(deps(log), { tenant, actor, connectionId: connection._id, leadId: lead._id });

    const syncId = crmSyncId(lead._id, connection._id);
    expect(result).toEqual({
      syncId,
      leadId: lead._id,
      connectionId: connection._id,
      requestedAt: NOW.toISOString(),
      previous: null,
    });
    expect(produced).toHaveLength(1);
    expect(produced[0]).toMatchObject({ topic: CRM_SYNC_REQUESTS_TOPIC, key: lead._id });
    expect(JSON.parse(produced[0]!.value)).toEqual({
      schema_version: 1,
      kind: 'manual',
      message_id: expect.stringMatching(/^crmreq_[0-9a-f]{32}$/),
      sync_id: syncId,
      lead_id: lead._id,
      connection_id: connection._id,
      organization_id: tenant.organizationId,
      environment: 'live',
      requested_by: actor.id,
      requested_at: NOW.toISOString(),
    });
  });

  it('answers SERVICE_UNAVAILABLE naming the kind of error when the log refuses the message', async () => {
    const [lead, connection] = await Promise.all([storedLead(), storedConnection(true)]);
    const { log } = recordingLog(new BrokerNotAvailableError('broker 1 is not available'));

    const error: unknown = await requestCrmSync(deps(log), {
      tenant,
      actor,
      connectionId: connection._id,
      leadId: lead._id,
    }).catch((thrown: unknown) => thrown);

    expect(isDomainError(error) ? { code: error.code, message: error.message } : error).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'CRM syncs cannot be queued right now; try again (BrokerNotAvailableError)',
    });
  });

  it('refuses a disabled connection with VALIDATION_ERROR on the id and produces nothing', async () => {
    const [lead, connection] = await Promise.all([storedLead(), storedConnection(false)]);
    const { log, produced } = recordingLog();

    const error: unknown = await requestCrmSync(deps(log), {
      tenant,
      actor,
      connectionId: connection._id,
      leadId: lead._id,
    }).catch((thrown: unknown) => thrown);

    expect(isDomainError(error) ? { code: error.code, details: error.details } : error).toEqual({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'id', message: 'the CRM connection is disabled' }],
    });
    expect(produced).toEqual([]);
  });

  it('answers LEAD_NOT_FOUND before looking at the connection state for an id that is not a lead id, and produces nothing', async () => {
    const connection = await storedConnection(false);
    const { log, produced } = recordingLog();

    const error: unknown = await requestCrmSync(deps(log), {
      tenant,
      actor,
      connectionId: connection._id,
      leadId: 'not-a-lead',
    }).catch((thrown: unknown) => thrown);

    expect(isDomainError(error) ? error.code : error).toBe('LEAD_NOT_FOUND');
    expect(produced).toEqual([]);
  });
});
