/**
 * The validate stage on the real embedded engines: time rules measure up to when the api received
 * the submission, so a lead that waited in a backed-up pipeline is judged as it was sent.
 */
import { randomUUID } from 'node:crypto';
import { createDal, CustomFieldRepository, LeadRepository, ValidationRuleRepository } from '@leadstream/dal';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import type { LeadCommandMessage } from '@leadstream/schemas';
import { describe, expect, it } from 'vitest';
import { uncachedConfig } from '../batch/config-source';
import { useEmbeddedEngines } from '../test-support/embedded-engines';
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
      validateStage({ leads, organizations: dal.organizations, customFields: new CustomFieldRepository(engines.store), validationRules: new ValidationRuleRepository(engines.store), config: uncachedConfig, mx: undefined, now: () => stageRunsAt }),
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
    expect(JSON.parse(decision?.value ?? '{}')).toMatchObject({ outcome: 'rejected', reason: 'bot_detected', rule_id: 'validation.bot_timing' });
    expect(await leads.findById(tenant, message.lead_id)).toMatchObject({ status: 'rejected', rejection_reason: 'bot_detected', processed_at: stageRunsAt.toISOString() });
  });
});
