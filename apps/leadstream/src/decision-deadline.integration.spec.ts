/**
 * Past the decision deadline the api answers 202 with the lead id and a status URL (docs/pipeline.md),
 * and the lead is still processed: here the api runs alone (no stages), then a
 * separate `leadstream worker` process picks the submission up from the log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDal, LeadRepository } from '@leadstream/dal';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureAllIndexes } from './indexes';
import { CliProcess } from './test-support/cli-process';

const dataDir = mkdtempSync(join(tmpdir(), 'deadline-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a decision that misses its deadline', () => {
  it('answers 202 with a status URL that says processing, and the worker still decides the lead', async () => {
    const store = await openEmbeddedStore({ dataDir: join(dataDir, 'store') });
    await ensureAllIndexes(store);
    const dal = createDal(store);
    const organization = await dal.organizations.create({ name: 'Deadline College' });
    const tenant = { organizationId: organization.id, environment: 'live' as const };
    const vendor = await dal.vendors.create(tenant, { name: 'Vendor', type: 'inquiry' });
    const key = (await dal.apiKeys.create(tenant, { vendorId: vendor.id, name: 'k', permissions: ['read', 'write'] }))
      .key;
    const env = { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, MX_CHECK: 'off', DECISION_TIMEOUT_MS: '100' };

    const api = CliProcess.start(['api'], env);
    const base = String((await api.waitFor((line) => line.msg === 'api listening', 120_000))['url']);
    const response = await fetch(`${base}/api/v1/leads/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'patient@example.edu' }),
    });
    expect(response.status).toBe(202);
    const body = (await response.json()) as { success: boolean; lead_id: string; status: string; status_url: string };
    expect(body).toMatchObject({
      success: true,
      status: 'processing',
      status_url: `/api/leads/${body.lead_id}/status`,
    });
    const pending = await fetch(`${base}${body.status_url}`, { headers: { authorization: `Bearer ${key}` } });
    expect(pending.status).toBe(200);
    expect(await pending.json()).toMatchObject({ id: body.lead_id, status: 'processing', processed_at: null });
    // The user API's create-lead answers its 202 in its own envelope: {data}, nothing beside it.
    const registered = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'owner@deadline.edu',
        password: 'Passw0rd!',
        first_name: 'Dee',
        last_name: 'Line',
        organization_name: 'Deadline Two',
      }),
    });
    const token = ((await registered.json()) as { token: string }).token;
    const created = await fetch(`${base}/api/leads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'typed.in@example.edu' }),
    });
    expect(created.status).toBe(202);
    const createdBody = (await created.json()) as { data: { id: string } };
    expect(createdBody).toEqual({
      data: {
        id: expect.stringMatching(/^lead_/),
        status: 'processing',
        status_url: `/api/leads/${createdBody.data.id}`,
      },
    });
    api.kill('SIGTERM');
    expect((await api.exited).code).toBe(0);

    const worker = CliProcess.start(['worker', '--stages', 'validate,dedup,enrich'], env);
    await worker.waitFor((line) => line.msg === 'ready', 120_000);
    const leads = new LeadRepository(store);
    let lead = await leads.findById(tenant, body.lead_id);
    for (let attempt = 0; attempt < 200 && lead?.status !== 'active'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      lead = await leads.findById(tenant, body.lead_id);
    }
    worker.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
    await store.close();
    expect(lead).toMatchObject({ status: 'active', email: 'patient@example.edu', enrichment_status: 'completed' });
  }, 240_000);
});
