import { describe, expect, it } from 'vitest';
import { advanceLead, IllegalLeadTransition, leadStatusOf, startLead } from './lead.machine';

describe('lead machine', () => {
  it('takes a valid unique lead from received to active through every stage', () => {
    let actor = startLead('lead_1');
    expect(actor.state).toBe('received');
    actor = advanceLead(actor, {
      type: 'VALIDATION_PASSED',
      flags: ['email_typo'],
      warnings: [{ field: 'email', message: 'did you mean gmail.com?' }],
    });
    expect(actor.state).toBe('deduplicating');
    actor = advanceLead(actor, { type: 'UNIQUE' });
    actor = advanceLead(actor, { type: 'ENRICHED' });
    expect(actor.state).toBe('active');
    expect(leadStatusOf(actor.state)).toBe('active');
    expect(actor.context.flags).toEqual(['email_typo']);
    expect(actor.context.warnings).toHaveLength(1);
  });

  it('survives a JSON round trip between stages (what the store keeps)', () => {
    const stored = JSON.parse(
      JSON.stringify(advanceLead(startLead('lead_2'), { type: 'VALIDATION_PASSED', flags: [], warnings: [] })),
    );
    expect(advanceLead(stored, { type: 'UNIQUE' }).state).toBe('enriching');
  });

  it('ends rejected with the reason and rule when validation fails', () => {
    const actor = advanceLead(startLead('lead_3'), {
      type: 'VALIDATION_FAILED',
      reason: 'disposable_email',
      ruleId: 'validation.disposable_email',
      message: 'no',
    });
    expect(actor.state).toBe('rejected');
    expect(leadStatusOf(actor.state)).toBe('rejected');
    expect(actor.context.rejection).toEqual({
      reason: 'disposable_email',
      ruleId: 'validation.disposable_email',
      message: 'no',
    });
  });

  it.each([
    ['DUPLICATE_REJECTED', 'duplicate'],
    ['DUPLICATE_MERGED', 'duplicate'],
    ['DUPLICATE_LINKED', 'enriching'],
    ['DUPLICATE_FLAGGED', 'enriching'],
  ] as const)('%s leads to %s and remembers the original', (type, state) => {
    const validated = advanceLead(startLead('lead_4'), { type: 'VALIDATION_PASSED', flags: [], warnings: [] });
    const actor = advanceLead(validated, { type, duplicateOf: 'lead_0', similarityScore: 97 });
    expect(actor.state).toBe(state);
    expect(actor.context.duplicateOf).toBe('lead_0');
    expect(actor.context.similarityScore).toBe(97);
    if (type === 'DUPLICATE_FLAGGED') expect(actor.context.flags).toEqual(['manual_review', 'possible_duplicate']);
  });

  it('refuses events out of order, and any event after a final state', () => {
    expect(() => advanceLead(startLead('lead_5'), { type: 'ENRICHED' })).toThrow(IllegalLeadTransition);
    const rejected = advanceLead(startLead('lead_6'), {
      type: 'VALIDATION_FAILED',
      reason: 'bot_detected',
      ruleId: 'r',
      message: 'm',
    });
    expect(() => advanceLead(rejected, { type: 'UNIQUE' })).toThrow(/cannot take UNIQUE/);
  });
});
