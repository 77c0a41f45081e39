/**
 * Suppression lists in the validate stage (docs/suppression-lists.md) on the real embedded engines:
 * one look-up of the whole batch's hashes, not one per lead; an entry past its list's expiry no
 * longer suppresses (the stage's clock decides); a `reject` list refuses with reason `suppressed`
 * and the list's id, a `flag` list sends the lead on for manual review naming the list.
 */
import {
  createDal,
  CustomFieldRepository,
  LeadRepository,
  SuppressionRepository,
  ValidationRuleRepository,
} from '@leadstream/dal';
import { suppressionHash, type SuppressionHit } from '@leadstream/domain';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { describe, expect, it } from 'vitest';
import { uncachedConfig } from '../batch/config-source';
import { useEmbeddedEngines } from '../test-support/embedded-engines';
import { leadCommand } from '../test-support/lead-command';
import { driveStage } from '../test-support/stage-driver';
import { TOPICS } from './outputs';
import { validateStage } from './validate.stage';

const engines = useEmbeddedEngines('suppression-check');
const DAY = 86_400_000;

describe('suppression lists in the validate stage', () => {
  it('decides a batch with one look-up: reject, flag, expired and clean leads', async () => {
    const dal = createDal(engines.store);
    const organization = await dal.organizations.create({ name: 'Suppressing U' });
    const tenant = { organizationId: organization.id, environment: 'live' as const };
    const repository = new SuppressionRepository(engines.store);
    const addedAt = new Date('2026-01-01T00:00:00.000Z');
    const stageNow = new Date(addedAt.getTime() + 31 * DAY);
    const base = { expires_after_days: null, sandbox_only: false, enabled: true };
    const rejectList = await repository.create(
      organization.id,
      'supl_reject',
      { ...base, name: 'Opted out', kind: 'email', action: 'reject' },
      addedAt.toISOString(),
    );
    const flagList = await repository.create(
      organization.id,
      'supl_flag',
      { ...base, name: 'Students', kind: 'phone', action: 'flag' },
      addedAt.toISOString(),
    );
    const expiringList = await repository.create(
      organization.id,
      'supl_expiring',
      { ...base, name: 'Thirty days', kind: 'email', action: 'reject', expires_after_days: 30 },
      addedAt.toISOString(),
    );
    await repository.addEntries(rejectList, [suppressionHash('email', 'gone@example.edu', false)!], addedAt);
    await repository.addEntries(flagList, [suppressionHash('phone', '(415) 555-2671', false)!], addedAt);
    await repository.addEntries(expiringList, [suppressionHash('email', 'old@example.edu', false)!], addedAt);

    const lookups: Array<{ listIds: readonly string[]; hashes: readonly string[] }> = [];
    const lookup = {
      list: (organizationId: string) => repository.list(organizationId),
      findHits: (listIds: readonly string[], hashes: readonly string[]): Promise<SuppressionHit[]> => {
        lookups.push({ listIds, hashes });
        return repository.findHits(listIds, hashes);
      },
    };
    const leads = new LeadRepository(engines.store);
    const validate = driveStage(
      validateStage({
        leads,
        organizations: dal.organizations,
        customFields: new CustomFieldRepository(engines.store),
        validationRules: new ValidationRuleRepository(engines.store),
        suppression: lookup,
        config: uncachedConfig,
        mx: undefined,
        now: () => stageNow,
      }),
      engines.writer,
    );
    const rejected = leadCommand(organization.id, 'vendor', { submission: { email: 'Gone@Example.edu' } });
    const flagged = leadCommand(organization.id, 'vendor', {
      submission: { email: 'ok@example.edu', phone: '+14155552671' },
    });
    const expired = leadCommand(organization.id, 'vendor', { submission: { email: 'old@example.edu' } });
    const clean = leadCommand(organization.id, 'vendor', { submission: { email: 'new@example.edu' } });
    await engines.log.produce(
      TOPICS.submitted,
      [rejected, flagged, expired, clean].map((message) => ({ key: 'k', value: JSON.stringify(message) })),
    );
    await validate.handle(await readTopic(engines.log, TOPICS.submitted));

    expect(lookups).toHaveLength(1);
    expect([...lookups[0]!.listIds].sort()).toEqual(['supl_expiring', 'supl_flag', 'supl_reject']);
    const decisions = (await readTopic(engines.log, TOPICS.decisions)).map((record) => JSON.parse(record.value));
    expect(decisions).toEqual([
      expect.objectContaining({
        lead_id: rejected.lead_id,
        outcome: 'rejected',
        reason: 'suppressed',
        rule_id: 'supl_reject',
        message: 'The lead is on suppression list "Opted out"',
      }),
    ]);
    expect(await leads.findById(tenant, rejected.lead_id)).toMatchObject({
      status: 'rejected',
      rejection_reason: 'suppressed',
      rule_id: 'supl_reject',
    });
    expect(await leads.findById(tenant, flagged.lead_id)).toMatchObject({
      flags: ['manual_review'],
      review_flags: [{ rule_id: 'supl_flag', reason: 'on suppression list "Students"', severity: 'high' }],
      rejection_reason: null,
    });
    for (const passed of [expired, clean])
      expect(await leads.findById(tenant, passed.lead_id)).toMatchObject({ rejection_reason: null, flags: [] });
  });
});
