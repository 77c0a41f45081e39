/**
 * The route stage's hold of flagged leads and its application of review decisions
 * (docs/review-queue.md): what is stored and produced for each case.
 */
import { startLead, timelineEntry, timelineOf, type LeadRecord } from '@leadstream/domain';
import type { LeadCommandMessage, LeadEventMessage } from '@leadstream/schemas';
import { describe, expect, it } from 'vitest';
import { heldForReview, reviewStep } from './review-hold';

const AT = '2026-11-27T12:00:00.000Z';
/** When the route stage held the lead: half an hour before the decision. */
const HELD = '2026-11-27T11:30:00.000Z';
/** The route stage's entry of the hold, as the intake chain stored it. */
const heldEntry = timelineEntry('routed', 'held for review', '2026-11-27T11:29:59.990Z', HELD, {});

function leadOf(overrides: Partial<LeadRecord> = {}): LeadRecord {
  return {
    _id: 'lead_1',
    organization_id: 'org_1',
    environment: 'live',
    vendor_id: 'vnd_1',
    status: 'active',
    email: 'quick@example.edu',
    first_name: 'Quick',
    flags: ['manual_review', 'possible_bot'],
    warnings: [],
    submitted_at: '2026-11-27T11:00:00.000Z',
    crm_sync_status: 'pending',
    applied_messages: [],
    actor: startLead('lead_1'),
    ...overrides,
  } as LeadRecord;
}

const command = (review?: LeadCommandMessage['review'], id = 'msg_1'): LeadCommandMessage => ({
  schema_version: 1,
  message_id: id,
  correlation_id: 'c',
  lead_id: 'lead_1',
  organization_id: 'org_1',
  environment: 'live',
  vendor_id: 'vnd_1',
  submitted_at: '2026-11-27T11:00:00.000Z',
  ...(review ? { review } : {}),
});

const events = (outputs: Array<{ value: string }>): LeadEventMessage[] =>
  outputs.map((output) => JSON.parse(output.value) as LeadEventMessage);

describe('the review hold in the route stage', () => {
  it('routes a lead nobody flagged', () => {
    const lead = leadOf({ flags: ['email_typo'] });
    expect(reviewStep(lead, command(), AT)).toEqual({ kind: 'route' });
    expect(heldForReview(lead, command())).toBe(false);
  });

  it('holds a flagged lead: stored pending with its flag kinds, nothing produced', () => {
    const lead = leadOf({ review_flags: [{ rule_id: 'r1', reason: 'odd', severity: 'high' }] });
    const step = reviewStep(lead, command(), AT);
    expect(heldForReview(lead, command())).toBe(true);
    expect(step).toMatchObject({
      kind: 'final',
      outputs: [],
      lead: {
        review_status: 'pending',
        review_kinds: ['possible_bot', 'rule'],
        review: { status: 'pending', held_at: AT, decision: null },
        applied_messages: ['msg_1'],
        crm_sync_status: 'pending',
      },
    });
  });

  it('approves a waiting lead: lead.reviewed, and the lead goes on to route', () => {
    const lead = leadOf({ review_status: 'pending', review: { kinds: ['possible_bot'], held_at: AT } });
    const approve = command({ decision: 'approve', reviewer: 'usr_1', reason: null });
    expect(heldForReview(lead, approve)).toBe(false);
    const step = reviewStep(lead, approve, AT);
    expect(step.kind).toBe('approve');
    if (step.kind !== 'approve') return;
    expect(step.lead).toMatchObject({ review_status: 'approved', review: { decision: 'approve', reviewer: 'usr_1' } });
    expect(events(step.outputs).map((event) => [event.event, event.data])).toEqual([
      [
        'lead.reviewed',
        {
          lead_id: 'lead_1',
          decision: 'approve',
          reviewer: 'usr_1',
          flags: ['possible_bot'],
          reason: null,
          automatic: false,
          reviewed_at: AT,
        },
      ],
    ]);
    expect(timelineOf(step.lead).map((entry) => [entry.stage, entry.outcome])).toEqual([['reviewed', 'approved']]);
    // Routed again later (a rule change): an approved lead is not held again.
    expect(reviewStep({ ...lead, ...step.lead }, command(undefined, 'msg_2'), AT)).toEqual({ kind: 'route' });
  });

  it('rejects a waiting lead: rejected, never synced, lead.reviewed and lead.rejected', () => {
    const lead = leadOf({ review_status: 'pending', review: { kinds: ['possible_bot'], held_at: AT } });
    const reject = command({ decision: 'reject', reviewer: 'automatic', reason: 'late', automatic: true });
    const step = reviewStep(lead, reject, AT);
    expect(step).toMatchObject({
      kind: 'final',
      lead: { status: 'rejected', crm_sync_status: 'not_applicable', review_status: 'rejected' },
    });
    if (step.kind !== 'final') return;
    expect(events(step.outputs).map((event) => event.event)).toEqual(['lead.reviewed', 'lead.rejected']);
    expect(events(step.outputs)[0]?.data).toMatchObject({ reviewer: 'automatic', automatic: true, reason: 'late' });
    // A rejected lead asked to route again stays as it is.
    expect(reviewStep(step.lead, command(undefined, 'msg_3'), AT)).toMatchObject({ kind: 'final', outputs: [] });
  });

  it('records the decision as the reviewed timeline entry, from the hold to the decision, after the hold', () => {
    const waiting = leadOf({
      review_status: 'pending',
      review: { kinds: ['possible_bot'], held_at: HELD },
      timeline: [heldEntry],
    });
    const approve = reviewStep(waiting, command({ decision: 'approve', reviewer: 'usr_1', reason: null }), AT);
    expect(approve.kind).toBe('approve');
    expect(timelineOf(approve.kind === 'approve' ? approve.lead : {})).toEqual([
      heldEntry,
      {
        stage: 'reviewed',
        outcome: 'approved',
        started_at: HELD,
        finished_at: AT,
        duration_ms: 30 * 60_000,
        detail: { reviewer: 'usr_1', automatic: false },
      },
    ]);
    const reject = reviewStep(
      waiting,
      command({ decision: 'reject', reviewer: 'automatic', reason: 'late', automatic: true }),
      AT,
    );
    expect(reject.kind).toBe('final');
    expect(timelineOf(reject.kind === 'final' ? reject.lead : {})).toEqual([
      heldEntry,
      {
        stage: 'reviewed',
        outcome: 'rejected',
        started_at: HELD,
        finished_at: AT,
        duration_ms: 30 * 60_000,
        detail: { reviewer: 'automatic', automatic: true, reason: 'late' },
      },
    ]);
    // Held, or decided a second time: no reviewed entry.
    const held = reviewStep(leadOf({ timeline: [] }), command(), HELD);
    expect(timelineOf(held.kind === 'final' ? held.lead : {})).toEqual([]);
    const again = reviewStep(
      { ...waiting, review_status: 'approved' },
      command({ decision: 'reject', reviewer: 'usr_2', reason: 'no' }, 'msg_5'),
      AT,
    );
    expect(timelineOf(again.kind === 'final' ? again.lead : {})).toEqual([heldEntry]);
  });

  it('keeps the first decision: a second one on a decided lead changes nothing but its applied messages', () => {
    const lead = leadOf({ review_status: 'approved', review: { kinds: ['possible_bot'], held_at: AT } });
    const late = command({ decision: 'reject', reviewer: 'usr_2', reason: 'no' }, 'msg_4');
    expect(heldForReview(lead, late)).toBe(true);
    expect(reviewStep(lead, late, AT)).toEqual({
      kind: 'final',
      lead: { ...lead, updated_at: AT, applied_messages: ['msg_4'] },
      outputs: [],
    });
  });
});
