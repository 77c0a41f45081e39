/**
 * Reprocessing end to end on `leadstream start`, on each engine set (docs/reprocessing.md): leads
 * are ingested and routed, then the routing rule's target and an enrichment rule change through
 * the API. A dry run reports what would change and changes nothing; the real run that follows
 * reports the same counts, writes the changes (lead.updated and a lead.reprocessed activity entry
 * per changed lead) and syncs to the CRM only the leads whose routing target changed. A job can
 * be cancelled: it stops before its end. Viewers read jobs and cannot start one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient } from './test-support/json-client';
import { LoopbackCrm } from './test-support/loopback-crm';
import { eventually } from './test-support/webhook-receiver';

const setups = engineSetups('reprocess');

interface Job {
  id: string;
  status: string;
  dry_run: boolean;
  total: number | null;
  done: number;
  changed: number;
  failed: number;
  crm_syncs: number;
  field_counts: Record<string, number>;
  sample: Array<{ lead_id: string; field: string; old: unknown; new: unknown }>;
}

interface ActivityEntry {
  event: string;
  description: string;
  metadata: Record<string, unknown>;
}

describe.each(setups)('reprocessing on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  const crm = new LoopbackCrm();
  let server: CliProcess;
  let base = '';
  const call = jsonClient(() => base);
  let token = '';
  const user = async (method: string, path: string, body?: unknown, expected = 200, as = token) => {
    const response = await call(method, path, body, as);
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(expected);
    return response.body;
  };
  const data = (body: Record<string, unknown>) => body['data'] as Record<string, unknown>;
  const leads: Record<'nurseFair' | 'nurseWeb' | 'fair' | 'web', string> = {
    nurseFair: '',
    nurseWeb: '',
    fair: '',
    web: '',
  };
  let admissions = '';
  let nursingCrm = '';
  let nursingRule = '';

  const activity = async (id: string) =>
    data(await user('GET', `/api/leads/${id}/activity`)) as unknown as ActivityEntry[];
  const finished = (id: string) =>
    eventually(`reprocessing job ${id} to end`, async () => {
      const job = data(await user('GET', `/api/reprocess/${id}`)) as unknown as Job;
      return ['completed', 'cancelled', 'failed'].includes(job.status) ? job : undefined;
    });

  beforeAll(async () => {
    await crm.start();
    ({ server, url: base } = await CliProcess.startService(
      serviceEnv({
        TOPIC_PARTITIONS: '3',
        DECISION_TIMEOUT_MS: '10000',
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        // One lead per batch and a pause between batches: a job over the four leads takes long
        // enough (4 s) to be cancelled while it runs, even when the cancel request itself is slow
        // on a loaded machine (with 400 ms a cancel on Kafka + FerretDB once came after the end).
        REPROCESS_BATCH_SIZE: '1',
        REPROCESS_PAUSE_MS: '1000',
        // The spec polls its jobs every 100 ms: not the user API's rate limit under test here.
        RATE_LIMIT_SCALE: '10',
        ...setup.env,
      }),
    ));
    token = String(
      (
        await call('POST', '/api/auth/register', {
          email: 'reprocess@example.edu',
          password: 'Reprocess-Passw0rd',
          first_name: 'Re',
          last_name: 'Process',
          organization_name: 'Reprocessing College',
        })
      ).body['token'],
    );
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await crm.stop();
    await setup.cleanup();
  });

  it('ingests and routes leads by the rules of the time', async () => {
    const vendor = String(data(await user('POST', '/api/vendors', { name: 'Fair Leads', type: 'inquiry' }, 201))['id']);
    const key = String(data(await user('POST', '/api/api-keys', { name: 'k', vendor_id: vendor }, 201))['key']);
    const connection = async (name: string, path: string) =>
      String(data(await user('POST', '/api/crm/connections', crm.connection(name, path), 201))['id']);
    admissions = await connection('Admissions CRM', '/admissions');
    nursingCrm = await connection('Nursing CRM', '/nursing');
    nursingRule = String(
      data(
        await user(
          'POST',
          '/api/routing/rules',
          {
            name: 'Nursing',
            priority: 1,
            conditions: {
              operator: 'AND',
              rules: [{ field: 'program_interest', operator: 'contains', value: 'nursing' }],
            },
            targets: [{ connection_id: admissions }],
          },
          201,
        ),
      )['id'],
    );
    const ingest = async (body: Record<string, unknown>): Promise<string> => {
      const response = await call(
        'POST',
        '/api/v1/leads/ingest',
        { first_name: 'Ada', last_name: 'Lee', ...body },
        key,
      );
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return String(response.body['lead_id']);
    };
    leads.nurseFair = await ingest({
      email: 'nurse.fair@example.edu',
      program_interest: 'Nursing',
      utm_source: 'fair',
    });
    leads.nurseWeb = await ingest({ email: 'nurse.web@example.edu', program_interest: 'Nursing', utm_source: 'web' });
    leads.fair = await ingest({ email: 'fair@example.edu', utm_source: 'fair' });
    leads.web = await ingest({ email: 'web@example.edu', utm_source: 'web' });
    for (const id of Object.values(leads))
      await eventually(`lead ${id} routed`, async () =>
        (await activity(id)).some((entry) => entry.event === 'lead.routed') ? true : undefined,
      );
    // The nursing leads went to the admissions CRM.
    await eventually('the nursing leads synced to admissions', () =>
      crm.to('/admissions', leads.nurseFair) + crm.to('/admissions', leads.nurseWeb) === 2 ? true : undefined,
    );
  });

  it('a dry run reports the differences and changes nothing; the real run reports the same and applies them', async () => {
    // The rules change: nursing leads now go to the nursing CRM, fair leads get a tier.
    await user('PATCH', `/api/routing/rules/${nursingRule}`, { targets: [{ connection_id: nursingCrm }] });
    await user(
      'POST',
      '/api/enrichment/rules',
      {
        name: 'Fair tier',
        priority: 1,
        conditions: { operator: 'AND', rules: [{ field: 'utm_source', operator: 'equals', value: 'fair' }] },
        actions: [{ type: 'set_field', field: 'enrichment_data.tier', value: 'fair' }],
      },
      201,
    );
    const before = Object.fromEntries(
      await Promise.all(Object.values(leads).map(async (id) => [id, data(await user('GET', `/api/leads/${id}`))])),
    ) as Record<string, Record<string, unknown>>;

    const stages = ['enrich', 'route', 'crm-sync'];
    const started = data(await user('POST', '/api/reprocess', { stages, dry_run: true }, 202)) as unknown as Job;
    expect(started.id).toMatch(/^reproc_/);
    expect(started).toMatchObject({ status: 'queued', dry_run: true, done: 0, changed: 0 });
    const dry = await finished(started.id);
    expect(dry).toMatchObject({ status: 'completed', total: 4, done: 4, changed: 3, failed: 0, crm_syncs: 2 });
    expect(dry.field_counts).toEqual({ routing: 2, enrichment_data: 2 });
    const sampled = dry.sample.map((difference) => `${difference.lead_id} ${difference.field}`).sort();
    expect(sampled).toEqual(
      [
        `${leads.nurseFair} enrichment_data`,
        `${leads.nurseFair} routing`,
        `${leads.nurseWeb} routing`,
        `${leads.fair} enrichment_data`,
      ].sort(),
    );
    const routing = dry.sample.find((difference) => difference.lead_id === leads.nurseWeb)!;
    expect(routing.old).toMatchObject({ targets: [{ connection_id: admissions }] });
    expect(routing.new).toMatchObject({ rule_id: nursingRule, targets: [{ connection_id: nursingCrm }] });

    // Nothing changed: the leads are as they were, with no reprocessing in their activity.
    for (const id of Object.values(leads)) {
      const lead = data(await user('GET', `/api/leads/${id}`));
      expect(lead['routing']).toEqual(before[id]!['routing']);
      expect(lead['enrichment_data']).toEqual(before[id]!['enrichment_data']);
      expect(lead['updated_at']).toBe(before[id]!['updated_at']);
      expect((await activity(id)).map((entry) => entry.event)).not.toContain('lead.reprocessed');
    }
    expect(crm.to('/nursing', leads.nurseFair) + crm.to('/nursing', leads.nurseWeb)).toBe(0);

    const real = data(await user('POST', '/api/reprocess', { stages }, 202)) as unknown as Job;
    const applied = await finished(real.id);
    expect(applied).toMatchObject({
      status: 'completed',
      dry_run: false,
      total: dry.total,
      done: dry.done,
      changed: dry.changed,
      failed: 0,
      crm_syncs: dry.crm_syncs,
    });
    expect(applied.field_counts).toEqual(dry.field_counts);
    expect(applied.sample).toEqual([]);

    // The changes are stored.
    expect(data(await user('GET', `/api/leads/${leads.nurseWeb}`))['routing']).toMatchObject({
      rule_id: nursingRule,
      targets: [{ connection_id: nursingCrm, owner: null, queue: null }],
    });
    expect(data(await user('GET', `/api/leads/${leads.fair}`))['enrichment_data']).toEqual({ tier: 'fair' });
    expect(data(await user('GET', `/api/leads/${leads.web}`))['updated_at']).toBe(before[leads.web]!['updated_at']);

    // Each changed lead has lead.updated (from leads.events) and the lead.reprocessed entry; the unchanged one neither.
    for (const id of [leads.nurseFair, leads.nurseWeb, leads.fair]) {
      const entries = await eventually(`lead.updated of ${id}`, async () => {
        const list = await activity(id);
        return list.some((entry) => entry.event === 'lead.updated') ? list : undefined;
      });
      const reprocessed = entries.filter((entry) => entry.event === 'lead.reprocessed');
      expect(reprocessed).toHaveLength(1);
      expect(reprocessed[0]!.metadata['job_id']).toBe(real.id);
      const updated = entries.find((entry) => entry.event === 'lead.updated')!;
      expect(Object.keys(updated.metadata['changes'] as object).sort()).toEqual(
        Object.keys(reprocessed[0]!.metadata['changes'] as object).sort(),
      );
    }
    expect((await activity(leads.nurseFair)).find((entry) => entry.event === 'lead.updated')!.metadata).toMatchObject({
      changes: {
        enrichment_data: { old: {}, new: { tier: 'fair' } },
        routing: { new: { targets: [{ connection_id: nursingCrm }] } },
      },
    });
    expect((await activity(leads.web)).map((entry) => entry.event)).not.toContain('lead.updated');
    expect((await activity(leads.web)).map((entry) => entry.event)).not.toContain('lead.reprocessed');

    // Only the leads whose target changed go to the CRM again, to their new target.
    await eventually('the re-routed leads synced to the nursing CRM', () =>
      crm.to('/nursing', leads.nurseFair) === 1 && crm.to('/nursing', leads.nurseWeb) === 1 ? true : undefined,
    );
    expect(crm.to('/admissions', leads.fair)).toBe(1);
    expect(crm.to('/nursing', leads.fair)).toBe(1);

    // Nothing is left to change: a second dry run finds nothing.
    const again = await finished(
      String(data(await user('POST', '/api/reprocess', { stages, dry_run: true }, 202))['id']),
    );
    expect(again).toMatchObject({ status: 'completed', done: 4, changed: 0, field_counts: {}, sample: [] });
  });

  it('cancels a job: it stops before its end', async () => {
    const job = data(await user('POST', '/api/reprocess', { stages: ['enrich', 'route'], dry_run: true }, 202));
    // Cancelled while it runs: the stage has started it (one lead a batch, a second's pause after each).
    await eventually(`reprocessing job ${String(job['id'])} to run`, async () => {
      const state = data(await user('GET', `/api/reprocess/${String(job['id'])}`)) as unknown as Job;
      expect(state.status, 'the job ended before it could be cancelled').not.toBe('completed');
      return state.status === 'running' ? state : undefined;
    });
    const cancelled = data(await user('POST', `/api/reprocess/${String(job['id'])}/cancel`)) as unknown as Job;
    expect(cancelled.id).toBe(job['id']);
    const ended = await finished(String(job['id']));
    expect(ended.status).toBe('cancelled');
    expect(ended.done).toBeLessThan(4);
    // Cancelling again answers the job as it is.
    expect(data(await user('POST', `/api/reprocess/${String(job['id'])}/cancel`))).toMatchObject({
      status: 'cancelled',
      done: ended.done,
    });
  });

  it('checks the request, keeps jobs to their organization, and lets viewers read but not start', async () => {
    const invalid = await call('POST', '/api/reprocess', { stages: ['crm-sync'], filter: { colour: 'red' } }, token);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    const fields = ((invalid.body['error'] as { details: Array<{ field: string }> }).details ?? []).map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['filter.colour', 'stages']));

    const job = String(data(await user('POST', '/api/reprocess', { stages: ['route'], dry_run: true }, 202))['id']);
    await user(
      'POST',
      '/api/users',
      { email: 'viewer@example.edu', first_name: 'Vi', last_name: 'Ewer', role: 'viewer', password: 'Viewer-Passw0rd' },
      201,
    );
    const viewer = String(
      (await call('POST', '/api/auth/login', { email: 'viewer@example.edu', password: 'Viewer-Passw0rd' })).body[
        'token'
      ],
    );
    expect(data(await user('GET', `/api/reprocess/${job}`, undefined, 200, viewer))['id']).toBe(job);
    const refused = await call('POST', '/api/reprocess', { stages: ['route'], dry_run: true }, viewer);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'INSUFFICIENT_PERMISSIONS' } });
    expect((await call('POST', `/api/reprocess/${job}/cancel`, undefined, viewer)).status).toBe(403);

    const other = String(
      (
        await call('POST', '/api/auth/register', {
          email: 'other@example.edu',
          password: 'Other-Passw0rd',
          first_name: 'Ot',
          last_name: 'Her',
          organization_name: 'Other College',
        })
      ).body['token'],
    );
    const hidden = await call('GET', `/api/reprocess/${job}`, undefined, other);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});
