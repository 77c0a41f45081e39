/**
 * The validate stage on the real embedded engines: time rules measure up to when the api received
 * the submission, so a lead that waited in a backed-up pipeline is judged as it was sent.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDal, CustomFieldRepository, LeadRepository } from '@leadstream/dal';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import type { LeadCommandMessage } from '@leadstream/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LeadActorStore } from './lead-actor-store';
import { TOPICS } from './outputs';
import { validateHandler } from './validate.stage';

let dir: string;
let log: EventLog;
let store: DocumentStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'validate-stage-'));
  log = await openEmbeddedLog({ dataDir: join(dir, 'log') });
  store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
  await log.ensureTopics(Object.values(TOPICS).map((topic) => ({ topic, partitions: 1 })));
});

afterEach(async () => {
  await log.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('validate stage', () => {
  it('judges form timing at submission time even when the stage runs much later', async () => {
    const dal = createDal(store);
    const organization = await dal.organizations.create({ name: 'Late Stage U' });
    const tenant = { organizationId: organization.id, environment: 'live' as const };
    const submittedAt = new Date('2026-11-22T08:00:00.000Z');
    const stageRunsAt = new Date(submittedAt.getTime() + 10_000);
    const leads = new LeadRepository(store);
    const validate = validateHandler({
      actors: new LeadActorStore(leads, log, () => stageRunsAt),
      organizations: dal.organizations,
      customFields: new CustomFieldRepository(store),
      mx: undefined,
      now: () => stageRunsAt,
    });
    const message: LeadCommandMessage = {
      schema_version: 1,
      message_id: `msg_${randomUUID().replace(/-/g, '')}`,
      correlation_id: `corr_${randomUUID().replace(/-/g, '')}`,
      lead_id: `lead_${randomUUID().replace(/-/g, '')}`,
      organization_id: tenant.organizationId,
      environment: 'live',
      vendor_id: 'vendor',
      submitted_at: submittedAt.toISOString(),
      submission: { email: 'speedy@example.edu', form_started_at: new Date(submittedAt.getTime() - 400).toISOString() },
    };
    await validate({ value: JSON.stringify(message), key: 'k' });
    const [decision] = await readTopic(log, TOPICS.decisions);
    expect(JSON.parse(decision?.value ?? '{}')).toMatchObject({ outcome: 'rejected', reason: 'bot_detected', rule_id: 'validation.bot_timing' });
    expect(await leads.findById(tenant, message.lead_id)).toMatchObject({ status: 'rejected', rejection_reason: 'bot_detected', processed_at: stageRunsAt.toISOString() });
  });
});
