/**
 * The leads API and custom fields, black box: the real `leadstream start` process (every pipeline
 * stage) on the embedded engines and on Kafka + FerretDB, driven over HTTP as a signed-in user.
 * Creation goes through the same pipeline and decision wait as vendor ingestion; updates leave
 * activity entries with their changes; custom field rules (RE2 patterns, bounds, enums, defaults)
 * hold on creation and on update.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';

const kafka = lookupInfra('KAFKA_BROKERS');
const mongodb = lookupInfra('MONGODB_URI');

function embeddedEnv(): Record<string, string> {
  return { DATA_DIR: mkdtempSync(join(tmpdir(), 'leads-api-')) };
}

function distributedEnv(): Record<string, string> {
  const suffix = randomUUID().slice(0, 8);
  return {
    DATA_DIR: mkdtempSync(join(tmpdir(), 'leads-api-')),
    KAFKA_BROKERS: kafka.value ?? '',
    TOPIC_PREFIX: `leads-api-${suffix}.`,
    MONGODB_URI: mongodb.value ?? '',
    MONGODB_DB: `leads_api_${suffix}`,
  };
}

const setups: Array<[string, () => Record<string, string>]> = [['embedded engines', embeddedEnv]];
if (kafka.value && mongodb.value) setups.push(['Kafka and FerretDB', distributedEnv]);

type Body = Record<string, unknown>;

describe.each(setups)('leads API on the %s', (_name, makeEnv) => {
  const env = makeEnv();
  let server: CliProcess;
  let base: string;
  let token: string;

  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Body }> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Body) : {} };
  };
  const data = (body: Body): Body => body['data'] as Body;
  const fieldsOf = (body: Body): string[] =>
    ((body['error'] as { details?: Array<{ field: string }> }).details ?? []).map((detail) => detail.field);

  beforeAll(async () => {
    server = CliProcess.start(['start'], serviceEnv({ TOPIC_PARTITIONS: '3', DECISION_TIMEOUT_MS: '15000', ...env }));
    const listening = await server.waitFor((line) => line.msg === 'api listening', 120_000);
    await server.waitFor((line) => line.msg === 'ready');
    base = String(listening['url']);
    const registered = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'registrar@leads.edu',
        password: 'Passw0rd!',
        first_name: 'Reg',
        last_name: 'Istrar',
        organization_name: 'Leads University',
      }),
    });
    expect(registered.status).toBe(201);
    token = String(((await registered.json()) as Body)['token']);
    // Custom fields first: the validate stage caches an organization's definitions for a few seconds.
    const fields = [
      { name: 'student_id', label: 'Student ID', type: 'string', validation: { pattern: '^[A-Z]{2}\\d{6}$' } },
      { name: 'gpa', label: 'GPA', type: 'number', validation: { min: 0, max: 4 } },
      {
        name: 'term',
        label: 'Intake term',
        type: 'string',
        required: true,
        default_value: 'fall',
        validation: { enum: ['fall', 'spring'] },
      },
    ];
    for (const field of fields) expect((await call('POST', '/api/enrichment/custom-fields', field)).status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    if (env['DATA_DIR']) rmSync(env['DATA_DIR'], { recursive: true, force: true });
  });

  describe('custom fields', () => {
    it('creates, lists, updates and deletes definitions', async () => {
      const created = await call('POST', '/api/enrichment/custom-fields', {
        name: 'campus',
        label: 'Campus',
        type: 'string',
      });
      expect(created.status).toBe(201);
      expect(Object.keys(data(created.body)).sort()).toEqual(['created_at', 'id', 'label', 'name', 'type']);
      const id = String(data(created.body)['id']);
      const list = await call('GET', '/api/enrichment/custom-fields');
      expect((list.body['data'] as Body[]).map((field) => field['name'])).toEqual([
        'campus',
        'gpa',
        'student_id',
        'term',
      ]);
      expect((list.body['data'] as Body[]).find((field) => field['name'] === 'term')).toMatchObject({
        required: true,
        default_value: 'fall',
        validation: { enum: ['fall', 'spring'] },
      });
      const patched = await call('PATCH', `/api/enrichment/custom-fields/${id}`, {
        label: 'Main campus',
        validation: { enum: ['north', 'south'] },
      });
      expect(patched.status).toBe(200);
      expect(data(patched.body)).toMatchObject({
        id,
        name: 'campus',
        label: 'Main campus',
        validation: { enum: ['north', 'south'] },
      });
      expect((await call('PATCH', `/api/enrichment/custom-fields/${id}`, { type: 'number' })).status).toBe(400);
      expect((await call('DELETE', `/api/enrichment/custom-fields/${id}`)).status).toBe(204);
      expect((await call('DELETE', `/api/enrichment/custom-fields/${id}`)).status).toBe(404);
    });

    it('refuses a duplicate name, a bad identifier, a default that breaks the rules, and a pattern RE2 cannot run', async () => {
      const duplicate = await call('POST', '/api/enrichment/custom-fields', { name: 'gpa', type: 'number' });
      expect(duplicate.status).toBe(409);
      expect((duplicate.body['error'] as { code: string }).code).toBe('ALREADY_EXISTS');
      expect(fieldsOf(duplicate.body)).toEqual(['name']);
      expect(
        fieldsOf((await call('POST', '/api/enrichment/custom-fields', { name: 'Bad-Name', type: 'string' })).body),
      ).toContain('name');
      expect(
        fieldsOf(
          (
            await call('POST', '/api/enrichment/custom-fields', {
              name: 'level',
              type: 'number',
              default_value: 9,
              validation: { max: 5 },
            })
          ).body,
        ),
      ).toEqual(['default_value']);
      // A backreference is valid JavaScript but not RE2: proof the pattern is compiled by RE2.
      const backreference = await call('POST', '/api/enrichment/custom-fields', {
        name: 'code',
        type: 'string',
        validation: { pattern: '^(a+)\\1$' },
      });
      expect(backreference.status).toBe(400);
      expect(fieldsOf(backreference.body)).toEqual(['validation.pattern']);
      expect(
        (
          await call('POST', '/api/enrichment/custom-fields', {
            name: 'code',
            type: 'string',
            validation: { pattern: '(' },
          })
        ).status,
      ).toBe(400);
    });
  });

  describe('POST /api/leads', () => {
    let firstId: string;

    it('creates an active lead through the pipeline: 201 with every field, the manual-entry vendor and custom field defaults', async () => {
      const { status, body } = await call('POST', '/api/leads', {
        email: 'Maria.Garcia@Example.edu',
        first_name: 'Maria',
        last_name: 'Garcia',
        phone: '(415) 555-2671',
        program: 'Nursing',
        program_interest: 'BSN evening',
        custom_fields: { student_id: 'AB123456', gpa: 3.7 },
      });
      expect(status, JSON.stringify(body)).toBe(201);
      const lead = data(body);
      // The deduplication log has its decision, a first lead with no score (answers checked against the OpenAPI document).
      const log = await call('GET', '/api/dedup/log?limit=5');
      expect(log.status, JSON.stringify(log.body)).toBe(200);
      expect(
        (log.body['data'] as Array<Record<string, unknown>>).find((entry) => entry['lead_id'] === lead['id']),
      ).toMatchObject({ matched_lead_id: null, final_score: null });
      expect(lead).toMatchObject({
        email: 'Maria.Garcia@example.edu',
        status: 'active',
        phone: '+14155552671',
        program: 'Nursing',
        program_interest: 'BSN evening',
        vendor_name: 'Manual entry',
        custom_fields: { student_id: 'AB123456', gpa: 3.7, term: 'fall' },
        deleted_at: null,
      });
      expect(lead).not.toHaveProperty('actor');
      firstId = String(lead['id']);
      const vendors = (await call('GET', '/api/vendors')).body['data'] as Body[];
      expect(vendors.filter((vendor) => vendor['name'] === 'Manual entry').map((vendor) => vendor['id'])).toEqual([
        lead['vendor_id'],
      ]);
      // A second manual lead reuses the same vendor.
      const second = await call('POST', '/api/leads', {
        email: 'second.manual@example.edu',
        custom_fields: { term: 'spring' },
      });
      expect(second.status).toBe(201);
      expect(data(second.body)).toMatchObject({ vendor_id: lead['vendor_id'], custom_fields: { term: 'spring' } });
    });

    it('uses the vendor_id given when it is a vendor of the organization', async () => {
      const vendor = await call('POST', '/api/vendors', { name: 'Campus Fair', type: 'inquiry' });
      const vendorId = String(data(vendor.body)['id']);
      const { status, body } = await call('POST', '/api/leads', {
        email: 'fair.visitor@example.edu',
        vendor_id: vendorId,
      });
      expect(status).toBe(201);
      expect(data(body)).toMatchObject({ vendor_id: vendorId, vendor_name: 'Campus Fair' });
    });

    it("answers 400 VALIDATION_ERROR with details from the pipeline's rules, naming custom fields", async () => {
      const { status, body } = await call('POST', '/api/leads', {
        email: 'rules@example.edu',
        phone: '12',
        custom_fields: { student_id: 'ab12', gpa: 4.5, term: 'summer', nope: 1 },
      });
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
      expect(fieldsOf(body).sort()).toEqual([
        'custom_fields.gpa',
        'custom_fields.nope',
        'custom_fields.student_id',
        'custom_fields.term',
        'phone',
      ]);
    });

    it('answers 409 DUPLICATE_LEAD with duplicate_of, and 422 for a rule rejection', async () => {
      const duplicate = await call('POST', '/api/leads', { email: 'maria.garcia@example.edu', first_name: 'Maria' });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toEqual({
        error: { code: 'DUPLICATE_LEAD', message: expect.any(String), duplicate_of: firstId },
      });
      const disposable = await call('POST', '/api/leads', { email: 'someone@mailinator.com' });
      expect(disposable.status).toBe(422);
      expect(disposable.body).toMatchObject({
        error: {
          code: 'LEAD_REJECTED',
          reason: 'disposable_email',
          rule_id: 'validation.disposable_email',
          details: [{ field: 'email' }],
        },
      });
    });

    it('updates a lead: custom field rules hold, and the activity log records lead.updated with its changes', async () => {
      const refused = await call('PATCH', `/api/leads/${firstId}`, { custom_fields: { student_id: 'nope' } });
      expect(refused.status).toBe(400);
      expect(fieldsOf(refused.body)).toEqual(['custom_fields.student_id']);
      expect(fieldsOf((await call('PATCH', `/api/leads/${firstId}`, { custom_fields: { term: null } })).body)).toEqual([
        'custom_fields.term',
      ]);

      const updated = await call('PATCH', `/api/leads/${firstId}`, {
        status: 'qualified',
        custom_fields: { gpa: 3.9 },
      });
      expect(updated.status).toBe(200);
      expect(data(updated.body)).toMatchObject({
        status: 'qualified',
        custom_fields: { student_id: 'AB123456', gpa: 3.9, term: 'fall' },
      });

      let entries: Body[] = [];
      // Polled gently: the user's general API limit (100/min) counts these requests too.
      for (let i = 0; i < 60; i++) {
        const activity = await call('GET', `/api/leads/${firstId}/activity`);
        expect(activity.status, JSON.stringify(activity.body)).toBe(200);
        entries = activity.body['data'] as Body[];
        if (entries.some((entry) => entry['event'] === 'lead.updated')) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(entries.map((entry) => entry['event'])).toEqual(
        expect.arrayContaining(['lead.created', 'lead.validated', 'lead.updated']),
      );
      expect(entries[0]?.['event']).toBe('lead.created');
      const update = entries.find((entry) => entry['event'] === 'lead.updated');
      expect(update).toMatchObject({
        description: 'Lead updated',
        metadata: {
          changes: {
            status: { old: 'active', new: 'qualified' },
            custom_fields: {
              old: { student_id: 'AB123456', gpa: 3.7, term: 'fall' },
              new: { student_id: 'AB123456', gpa: 3.9, term: 'fall' },
            },
          },
        },
      });
      expect(update?.['id']).toMatch(/^evt_/);
    });

    it('lists and finds the created leads, and soft-deletes them', async () => {
      const found = await call('GET', `/api/leads?search=${encodeURIComponent('415.555.2671')}`);
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      expect((found.body['data'] as Body[]).map((lead) => lead['id'])).toEqual([firstId]);
      expect((await call('DELETE', `/api/leads/${firstId}`)).status).toBe(204);
      expect((await call('GET', `/api/leads/${firstId}`)).status).toBe(404);
      // The refused duplicate submission stays listed as a lead with status duplicate (docs/decisions.md).
      const remaining = (await call('GET', '/api/leads?search=maria')).body['data'] as Body[];
      expect(remaining.map((lead) => lead['status'])).toEqual(['duplicate']);
    });
  });
});
