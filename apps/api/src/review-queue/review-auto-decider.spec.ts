/**
 * The scheduled automatic decision (docs/review-queue.md "Settings"), with a clock: only leads held
 * longer than `auto_decision_after_hours` are decided, with one message id per lead (so a run
 * repeated before the pipeline applied the first, e.g. after a restart, asks nothing new), and the
 * settings are checked as PATCH /api/organization takes them.
 */
import {
  DEFAULT_VALIDATION_SETTINGS,
  DomainError,
  readOrganizationPatch,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import { TOPICS } from '@leadstream/runtime';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ReviewAutoDecider } from './review-auto-decider';

const NOW = new Date('2026-11-27T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();

function held(id: string, heldAt: string): LeadRecord {
  return {
    _id: id,
    organization_id: 'org_1',
    environment: 'live',
    vendor_id: 'vnd_1',
    submitted_at: heldAt,
    review_status: 'pending',
    review: { held_at: heldAt },
  } as unknown as LeadRecord;
}

describe('the automatic review decision', () => {
  it('decides only the leads past the wait, with one message id per lead across runs', async () => {
    const leads = [held('lead_old', hoursAgo(25)), held('lead_new', hoursAgo(1))];
    const produced: Array<{ topic: string; key: string; value: string }> = [];
    const decider = new ReviewAutoDecider({
      queue: {
        organizationsWithSettings: async () => [
          { organization_id: 'org_1', review_sla_hours: 4, auto_decision_after_hours: 24, auto_decision: 'reject' },
        ],
        waitingSince: async (tenant: TenantContext, before: string) =>
          tenant.environment === 'live'
            ? leads.filter((lead) => (lead['review'] as { held_at: string }).held_at < before)
            : [],
        countWaitingSince: async (tenant: TenantContext, before: string) =>
          tenant.environment === 'live'
            ? leads.filter((lead) => (lead['review'] as { held_at: string }).held_at < before).length
            : 0,
        findVisible: async (_tenant: TenantContext, id: string) => leads.find((lead) => lead._id === id) ?? null,
      },
      log: {
        produce: async (topic, records) => {
          for (const record of records) produced.push({ topic, key: String(record.key), value: String(record.value) });
          return [];
        },
      },
      logger: pino({ level: 'silent' }),
      clock: () => NOW,
    });
    expect(await decider.runOnce()).toEqual(['lead_old']);
    expect(await decider.runOnce()).toEqual(['lead_old']);
    expect(produced.map((record) => [record.topic, record.key])).toEqual([
      [TOPICS.enriched, 'lead_old'],
      [TOPICS.enriched, 'lead_old'],
    ]);
    const [first, second] = produced.map((record) => JSON.parse(record.value) as Record<string, unknown>);
    expect(first).toMatchObject({
      message_id: 'review-auto:lead_old',
      lead_id: 'lead_old',
      review: { decision: 'reject', reviewer: 'automatic', automatic: true, reason: 'no decision within 24 h' },
    });
    // The same command again: the route stage skips it as an applied message.
    expect(second?.['message_id']).toBe(first?.['message_id']);
  });

  it('reads the settings from PATCH /api/organization, merged into the current ones', () => {
    const patch = (settings: Record<string, unknown>, current?: Record<string, unknown>) =>
      readOrganizationPatch({ settings }, DEFAULT_VALIDATION_SETTINGS, undefined, current).review;
    expect(patch({ review_sla_hours: 4 })).toEqual({
      review_sla_hours: 4,
      auto_decision_after_hours: null,
      auto_decision: null,
    });
    expect(patch({ auto_decision_after_hours: 24, auto_decision: 'approve' }, { review_sla_hours: 2 })).toEqual({
      review_sla_hours: 2,
      auto_decision_after_hours: 24,
      auto_decision: 'approve',
    });
    // The decision already set stays when only the wait changes; null clears a setting.
    expect(
      patch(
        { auto_decision_after_hours: 48, review_sla_hours: null },
        {
          review_sla_hours: 2,
          auto_decision_after_hours: 24,
          auto_decision: 'reject',
        },
      ),
    ).toEqual({ review_sla_hours: null, auto_decision_after_hours: 48, auto_decision: 'reject' });
    // Settings that say nothing about review leave it alone.
    expect(patch({ consent_retention_days: 30 })).toBeUndefined();
  });

  it('refuses bad settings with every bad field, and an automatic wait without a decision', () => {
    const fields = (settings: Record<string, unknown>, current?: Record<string, unknown>): string[] => {
      try {
        readOrganizationPatch({ settings }, DEFAULT_VALIDATION_SETTINGS, undefined, current);
      } catch (error) {
        expect(error).toBeInstanceOf(DomainError);
        return ((error as DomainError).details ?? []).map((detail) => detail.field);
      }
      return [];
    };
    expect(fields({ review_sla_hours: 0, auto_decision_after_hours: -1, auto_decision: 'maybe' })).toEqual([
      'settings.review_sla_hours',
      'settings.auto_decision_after_hours',
      'settings.auto_decision',
    ]);
    expect(fields({ review_sla_hours: '4', auto_decision_after_hours: 9_000 })).toEqual([
      'settings.review_sla_hours',
      'settings.auto_decision_after_hours',
    ]);
    expect(fields({ auto_decision_after_hours: 24 })).toEqual(['settings.auto_decision']);
    expect(fields({ auto_decision: null }, { auto_decision_after_hours: 24, auto_decision: 'approve' })).toEqual([
      'settings.auto_decision',
    ]);
    // A decision without a wait is kept (it does nothing until a wait is set).
    expect(fields({ auto_decision: 'approve' })).toEqual([]);
  });
});
