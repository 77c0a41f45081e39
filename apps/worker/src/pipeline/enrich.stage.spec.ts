/**
 * The enrich stage on the real embedded engines, behind the real validate and dedup stages: an
 * enrichment rule that cannot be evaluated is never counted as "no match". The lead is accepted
 * for manual review with a review flag naming the rule and its error, and the stage logs it.
 */
import {
  createDal,
  CustomFieldRepository,
  DedupRepository,
  EnrichmentConfigReader,
  EnrichmentRuleRepository,
  LeadRepository,
  ValidationRuleRepository,
} from '@leadstream/dal';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { parseLeadEvents, type LeadDecisionMessage } from '@leadstream/schemas';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { uncachedConfig } from '../batch/config-source';
import { useEmbeddedEngines } from '../test-support/embedded-engines';
import { leadCommand } from '../test-support/lead-command';
import { driveStage } from '../test-support/stage-driver';
import { dedupStage } from './dedup.stage';
import { enrichStage } from './enrich.stage';
import { TOPICS } from './outputs';
import { validateStage } from './validate.stage';

const engines = useEmbeddedEngines('enrich-stage');

describe('enrich stage', () => {
  it('sends a lead to manual review, naming the rule and its error, when a rule cannot be evaluated; and logs it', async () => {
    const dal = createDal(engines.store);
    const organization = await dal.organizations.create({ name: 'Unevaluable U' });
    const tenant = { organizationId: organization.id, environment: 'live' as const };
    const vendor = await dal.vendors.create(tenant, { name: 'V', type: 'inquiry' });
    const at = new Date().toISOString();
    const rules = new EnrichmentRuleRepository(engines.store);
    // Stored before the pattern limits existed: the API would refuse it now, and it is never compiled.
    await rules.create(
      organization.id,
      'rule_spam',
      {
        name: 'Spam names',
        description: null,
        priority: 1,
        enabled: true,
        conditions: { operator: 'AND', rules: [{ field: 'first_name', operator: 'matches_regex', value: '.{0,600}' }] },
        actions: [{ type: 'reject', reason: 'spam' }],
      },
      at,
    );
    await rules.create(
      organization.id,
      'rule_tier',
      {
        name: 'Tier',
        description: null,
        priority: 2,
        enabled: true,
        conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'is_not_empty' }] },
        actions: [{ type: 'set_field', field: 'enrichment_data.tier', value: 'A' }],
      },
      at,
    );
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const leads = new LeadRepository(engines.store);
    const validate = driveStage(
      validateStage({
        leads,
        organizations: dal.organizations,
        customFields: new CustomFieldRepository(engines.store),
        validationRules: new ValidationRuleRepository(engines.store),
        config: uncachedConfig,
        mx: undefined,
      }),
      engines.writer,
    );
    const dedup = driveStage(
      dedupStage({ leads, dedup: new DedupRepository(engines.store), vendors: dal.vendors, config: uncachedConfig }),
      engines.writer,
    );
    const enrich = driveStage(
      enrichStage({ leads, enrichment: new EnrichmentConfigReader(engines.store), config: uncachedConfig, logger }),
      engines.writer,
    );

    const message = leadCommand(organization.id, vendor.id);
    await engines.log.produce(TOPICS.submitted, [{ key: 'k', value: JSON.stringify(message) }]);
    await validate.handle(await readTopic(engines.log, TOPICS.submitted));
    await dedup.handle(await readTopic(engines.log, TOPICS.validated));
    await enrich.handle(await readTopic(engines.log, TOPICS.unique));

    const error = 'conditions.rules[0].value: pattern too costly: counted repetitions add up to 600 (at most 500)';
    const decisions = (await readTopic(engines.log, TOPICS.decisions)).map(
      (record) => JSON.parse(record.value) as LeadDecisionMessage,
    );
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ outcome: 'accepted', lead_id: message.lead_id, flags: ['manual_review'] });
    const lead = await leads.findById(tenant, message.lead_id);
    expect(lead).toMatchObject({
      status: 'active',
      flags: ['manual_review'],
      validation_status: 'flagged',
      // The rules that could run still did.
      enrichment_data: { tier: 'A' },
      review_flags: [
        {
          rule_id: 'rule_spam',
          rule_name: 'Spam names',
          reason: `rule "Spam names" cannot be evaluated: ${error}`,
          severity: 'high',
          error,
        },
      ],
    });
    const enriched = (await readTopic(engines.log, TOPICS.events))
      .flatMap((record) => parseLeadEvents(record.value))
      .find((event) => event.event === 'lead.enriched');
    expect(enriched?.data['flags']).toEqual([
      {
        rule_id: 'rule_spam',
        rule_name: 'Spam names',
        reason: `rule "Spam names" cannot be evaluated: ${error}`,
        severity: 'high',
        error,
      },
    ]);

    const logged = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry['code'] === 'rule_unevaluable');
    expect(logged).toEqual([
      expect.objectContaining({
        level: 40,
        code: 'rule_unevaluable',
        rule_kind: 'enrichment',
        rule_id: 'rule_spam',
        rule_name: 'Spam names',
        organization_id: organization.id,
        lead_id: message.lead_id,
        error,
      }),
    ]);
  });
});
