/**
 * The configured deduplication action decides what happens to a repeated lead (docs/decisions.md
 * "Deduplication"): reject answers 409; merge fills the original and keeps its source;
 * link-to-existing accepts with duplicate_of; flag accepts for manual review; allow accepts. Real
 * embedded engines, real stages.
 */
import { randomUUID } from 'node:crypto';
import {
  createDal,
  CustomFieldRepository,
  DedupRepository,
  LeadRepository,
  ValidationRuleRepository,
  EnrichmentConfigReader,
} from '@leadstream/dal';
import { DEFAULT_DEDUP_CONFIG, type DedupAction, type LeadRecord } from '@leadstream/domain';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import type { LeadCommandMessage, LeadDecisionMessage } from '@leadstream/schemas';
import { describe, expect, it } from 'vitest';
import { uncachedConfig } from '../batch/config-source';
import { useEmbeddedEngines } from '../test-support/embedded-engines';
import { driveStage } from '../test-support/stage-driver';
import { dedupStage } from './dedup.stage';
import { enrichStage } from './enrich.stage';
import { TOPICS } from './outputs';
import { validateStage } from './validate.stage';

const engines = useEmbeddedEngines('dedup-actions');

/** Runs one submission through validate, dedup and enrich; returns the decision and the lead. */
async function pipeline(action: DedupAction) {
  const dal = createDal(engines.store);
  const organization = await dal.organizations.create({ name: 'Actions U' });
  const tenant = { organizationId: organization.id, environment: 'live' as const };
  const vendor = await dal.vendors.create(tenant, { name: 'V', type: 'inquiry' });
  const dedup = new DedupRepository(engines.store);
  await dedup.saveConfig(tenant, { ...DEFAULT_DEDUP_CONFIG, action }, new Date());
  const leads = new LeadRepository(engines.store);
  const stages = {
    validate: driveStage(
      validateStage({
        leads,
        organizations: dal.organizations,
        customFields: new CustomFieldRepository(engines.store),
        validationRules: new ValidationRuleRepository(engines.store),
        config: uncachedConfig,
        mx: undefined,
      }),
      engines.writer,
    ),
    dedup: driveStage(dedupStage({ leads, dedup, vendors: dal.vendors, config: uncachedConfig }), engines.writer),
    enrich: driveStage(
      enrichStage({ leads, enrichment: new EnrichmentConfigReader(engines.store), config: uncachedConfig }),
      engines.writer,
    ),
  };
  let seen = { submitted: 0, validated: 0, unique: 0, decisions: 0 };

  async function submit(
    submission: Record<string, unknown>,
  ): Promise<{ decision: LeadDecisionMessage; lead: LeadRecord | null }> {
    const message: LeadCommandMessage = {
      schema_version: 1,
      message_id: `msg_${randomUUID().replace(/-/g, '')}`,
      correlation_id: `corr_${randomUUID().replace(/-/g, '')}`,
      lead_id: `lead_${randomUUID().replace(/-/g, '')}`,
      organization_id: tenant.organizationId,
      environment: 'live',
      vendor_id: vendor.id,
      submitted_at: new Date().toISOString(),
      submission,
    };
    await engines.log.produce(TOPICS.submitted, [{ key: 'k', value: JSON.stringify(message) }]);
    const submitted = (await readTopic(engines.log, TOPICS.submitted)).slice(seen.submitted);
    await stages.validate.handle(submitted);
    const validated = (await readTopic(engines.log, TOPICS.validated)).slice(seen.validated);
    await stages.dedup.handle(validated);
    const unique = (await readTopic(engines.log, TOPICS.unique)).slice(seen.unique);
    await stages.enrich.handle(unique);
    const decisions = (await readTopic(engines.log, TOPICS.decisions)).slice(seen.decisions);
    seen = {
      submitted: seen.submitted + submitted.length,
      validated: seen.validated + validated.length,
      unique: seen.unique + unique.length,
      decisions: seen.decisions + decisions.length,
    };
    expect(decisions).toHaveLength(1);
    return {
      decision: JSON.parse(decisions[0]?.value ?? '{}') as LeadDecisionMessage,
      lead: await leads.findById(tenant, message.lead_id),
    };
  }
  return { submit, leads, tenant, dedup };
}

const original = { email: 'sam.jones@gmail.com', first_name: 'Sam', source: 'fair-2026' };
const repeat = { email: 'Sam.Jones+fall@gmail.com', last_name: 'Jones', phone: '+1 415 555 2671', source: 'web' };

describe('dedup actions through the pipeline', () => {
  it('reject: 409 decision, the repeat is a duplicate of the original, and the decision is logged', async () => {
    const { submit, dedup, tenant } = await pipeline('reject');
    const first = await submit(original);
    const second = await submit(repeat);
    expect(second.decision).toMatchObject({
      outcome: 'duplicate',
      duplicate_of: first.lead?._id,
      similarity_score: 100,
      matched_fields: ['email'],
    });
    expect(second.lead).toMatchObject({ status: 'duplicate', duplicate_of: first.lead?._id });
    const [entry] = await dedup.recent(tenant, 1);
    expect(entry).toMatchObject({
      lead_id: second.lead?._id,
      matched_lead_id: first.lead?._id,
      action_taken: 'reject',
      threshold: 85,
      final_score: 100,
    });
  });

  it("merge: fills the original's empty fields, keeps its source, answers with the original id", async () => {
    const { submit, leads, tenant } = await pipeline('merge');
    const first = await submit(original);
    const second = await submit(repeat);
    expect(second.decision).toMatchObject({ outcome: 'merged', lead_id: first.lead?._id });
    expect(second.lead).toMatchObject({ status: 'duplicate', duplicate_of: first.lead?._id });
    const merged = await leads.findById(tenant, first.lead?._id ?? '');
    expect(merged).toMatchObject({
      status: 'active',
      last_name: 'Jones',
      phone: '+14155552671',
      first_name: 'Sam',
      source: 'fair-2026',
    });
  });

  it('merge: the original keeps its search and blocking fields current, and a third lead with the merged phone is caught', async () => {
    const { submit, leads, tenant } = await pipeline('merge');
    const first = await submit(original);
    const before = await leads.findById(tenant, first.lead?._id ?? '');
    await submit(repeat);
    const merged = await leads.findById(tenant, first.lead?._id ?? '');
    // Written through the batch's compare-and-set write: its version moved on.
    expect(merged?.version).toBe((before?.version ?? 0) + 1);
    expect(merged).toMatchObject({ phone_digits: '4155552671', last_name_lower: 'jones' });
    expect(merged?.bk_phone).toEqual(expect.any(String));
    expect(merged?.bk_name).toEqual(expect.any(String));
    const third = await submit({
      email: 'sjones@other-school.edu',
      first_name: 'Sam',
      last_name: 'Jones',
      phone: '(415) 555-2671',
    });
    expect(third.decision).toMatchObject({ outcome: 'merged', lead_id: first.lead?._id });
  });

  it('link-to-existing: accepted, active, pointing at the original', async () => {
    const { submit } = await pipeline('link-to-existing');
    const first = await submit(original);
    const second = await submit(repeat);
    expect(second.decision).toMatchObject({ outcome: 'accepted', duplicate_of: first.lead?._id });
    expect(second.lead).toMatchObject({ status: 'active', duplicate_of: first.lead?._id });
  });

  it('flag: accepted for manual review', async () => {
    const { submit } = await pipeline('flag');
    await submit(original);
    const second = await submit(repeat);
    expect(second.decision.outcome).toBe('accepted');
    expect(second.decision.flags).toEqual(expect.arrayContaining(['manual_review', 'possible_duplicate']));
    expect(second.lead?.status).toBe('active');
  });

  it('allow: accepted as a new lead', async () => {
    const { submit } = await pipeline('allow');
    await submit(original);
    const second = await submit(repeat);
    expect(second.decision).toMatchObject({ outcome: 'accepted' });
    expect(second.lead).toMatchObject({ status: 'active', duplicate_of: null });
  });
});
