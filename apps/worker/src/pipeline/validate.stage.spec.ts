/**
 * The validate stage on the real embedded engines: time rules measure up to when the api received
 * the submission, so a lead that waited in a backed-up pipeline is judged as it was sent; a
 * custom validation rule that cannot be evaluated sends the lead to review instead of letting it pass.
 */
import { randomUUID } from 'node:crypto';
import { createDal, CustomFieldRepository, LeadRepository, ValidationRuleRepository } from '@leadstream/dal';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { parseLeadEvents, type LeadCommandMessage } from '@leadstream/schemas';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { uncachedConfig } from '../batch/config-source';
import { useEmbeddedEngines } from '../test-support/embedded-engines';
import { leadCommand } from '../test-support/lead-command';
import { driveStage } from '../test-support/stage-driver';
import { TOPICS } from './outputs';
import { validateStage } from './validate.stage';

const engines = useEmbeddedEngines('validate-stage');

describe('validate stage', () => {
  it('judges form timing at submission time even when the stage runs much later', async () => {
    const dal = createDal(engines.store);
    const organization = await dal.organizations.create({ name: 'Late Stage U' });
    const tenant = { organizationId: organization.id, environment: 'live' as const };
    const submittedAt = new Date('2026-11-22T08:00:00.000Z');
    const stageRunsAt = new Date(submittedAt.getTime() + 10_000);
    const leads = new LeadRepository(engines.store);
    const validate = driveStage(
      validateStage({
        leads,
        organizations: dal.organizations,
        customFields: new CustomFieldRepository(engines.store),
        validationRules: new ValidationRuleRepository(engines.store),
        config: uncachedConfig,
        mx: undefined,
        now: () => stageRunsAt,
      }),
      engines.writer,
    );
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
    await engines.log.produce(TOPICS.submitted, [{ key: 'k', value: JSON.stringify(message) }]);
    await validate.handle(await readTopic(engines.log, TOPICS.submitted));
    const [decision] = await readTopic(engines.log, TOPICS.decisions);
    expect(JSON.parse(decision?.value ?? '{}')).toMatchObject({
      outcome: 'rejected',
      reason: 'bot_detected',
      rule_id: 'validation.bot_timing',
    });
    expect(await leads.findById(tenant, message.lead_id)).toMatchObject({
      status: 'rejected',
      rejection_reason: 'bot_detected',
      processed_at: stageRunsAt.toISOString(),
    });
  });

  it('accepts a lead for manual review, naming the rule and its error, when a custom validation rule cannot be evaluated; and logs it', async () => {
    const dal = createDal(engines.store);
    const organization = await dal.organizations.create({ name: 'Corrupt Rules U' });
    const tenant = { organizationId: organization.id, environment: 'live' as const };
    const at = new Date().toISOString();
    // A reject rule whose list is not a list (written around the API): it cannot be evaluated, so
    // it can neither refuse the lead nor let it through unseen.
    await new ValidationRuleRepository(engines.store).create(
      organization.id,
      'vrule_sources',
      {
        name: 'Allowed sources',
        field: 'utm_source',
        rule_type: 'whitelist',
        condition: 'in',
        value: 'google',
        action: 'reject',
        message: 'unknown source',
        priority: 1,
        enabled: true,
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
        logger,
      }),
      engines.writer,
    );
    const message = leadCommand(organization.id, 'vendor', {
      submission: { email: 'ann@college.edu', first_name: 'Ann', utm_source: 'spam' },
    });
    await engines.log.produce(TOPICS.submitted, [{ key: 'k', value: JSON.stringify(message) }]);
    await validate.handle(await readTopic(engines.log, TOPICS.submitted));

    const error = 'value: value must be a list of 1-1000 strings or numbers';
    const flag = {
      rule_id: 'vrule_sources',
      rule_name: 'Allowed sources',
      reason: `rule "Allowed sources" cannot be evaluated: ${error}`,
      severity: 'high',
      error,
    };
    // Handed on to deduplication: no decision yet, and not refused.
    expect(await readTopic(engines.log, TOPICS.decisions)).toEqual([]);
    expect(await readTopic(engines.log, TOPICS.validated)).toHaveLength(1);
    expect(await leads.findById(tenant, message.lead_id)).toMatchObject({
      validation_status: 'flagged',
      flags: ['manual_review'],
      rejection_reason: null,
      review_flags: [flag],
    });
    const validated = (await readTopic(engines.log, TOPICS.events))
      .flatMap((record) => parseLeadEvents(record.value))
      .find((event) => event.event === 'lead.validated');
    expect(validated?.data).toMatchObject({ flags: ['manual_review'], review_flags: [flag] });
    const logged = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry['code'] === 'rule_unevaluable');
    expect(logged).toEqual([
      expect.objectContaining({
        level: 40,
        code: 'rule_unevaluable',
        rule_kind: 'validation',
        rule_id: 'vrule_sources',
        rule_name: 'Allowed sources',
        organization_id: organization.id,
        lead_id: message.lead_id,
        error,
      }),
    ]);
  });
});
