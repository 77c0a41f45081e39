import type { Schemas } from '@leadstream/client';
import { describe, expect, it } from 'vitest';
import { reviewFlagText, reviewSentences, whyNotEnriched, whyNotRouted, whyNotSynced } from './lead-text';
import { routeText } from './routing-text';

const lead = (fields: Partial<Schemas['Lead']>): Schemas['Lead'] =>
  ({
    id: 'lead_b',
    status: 'active',
    validation_status: 'passed',
    crm_sync_status: 'pending',
    duplicate_of: null,
    routing: null,
    review_flags: [],
    ...fields,
  }) as Schemas['Lead'];

describe('why a stage will never run for a lead', () => {
  it('names the duplicate it is, for the sync, the route and the enrichment', () => {
    const duplicate = lead({ status: 'duplicate', duplicate_of: 'lead_a', crm_sync_status: 'not_applicable' });
    for (const why of [whyNotSynced(duplicate, false), whyNotRouted(duplicate), whyNotEnriched(duplicate)])
      expect(why).toEqual({ kind: 'duplicate', of: 'lead_a' });
  });

  it('tells a refused lead, a sandbox lead and a lead with nowhere to go apart, and says nothing of a lead still on its way', () => {
    expect(
      whyNotSynced(lead({ status: 'rejected', validation_status: 'failed', crm_sync_status: 'not_applicable' }), false),
    ).toEqual({ kind: 'rejected' });
    expect(whyNotSynced(lead({ crm_sync_status: 'not_applicable' }), true)).toEqual({ kind: 'sandbox' });
    const nowhere = lead({
      crm_sync_status: 'not_applicable',
      routing: { reason: 'none', rule_id: null, targets: [], routed_at: '2026-01-01T00:00:00Z' },
    });
    expect(whyNotSynced(nowhere, false)).toEqual({ kind: 'no_destination' });
    expect(whyNotRouted(nowhere)).toBeNull();
    const pending = lead({});
    expect([whyNotSynced(pending, false), whyNotRouted(pending), whyNotEnriched(pending)]).toEqual([null, null, null]);
    // A duplicate the dedup settings only flag goes on through the pipeline.
    expect(whyNotRouted(lead({ duplicate_of: 'lead_a' }))).toBeNull();
  });
});

describe('flags, warnings and review flags as sentences', () => {
  it('reads the validation warnings and flags, then the rules’ review flags', () => {
    const validated = {
      warnings: [
        { field: 'email', message: 'Did you mean ann@gmail.com?' },
        { field: 'ip_address', message: 'is not an IP address; the high-risk IP check was skipped' },
      ],
      flags: ['email_typo', 'manual_review'],
    };
    const flags = [
      { rule_id: 'rule_1', reason: 'call first', severity: 'high' },
      {
        rule_id: 'rule_2',
        rule_name: 'State from zip',
        reason: 'rule "State from zip" cannot be evaluated: x',
        severity: 'high',
        error: 'actions[0].table_name: no lookup table named zips',
      },
    ];
    expect(reviewSentences(validated, flags)).toEqual([
      'Email: Did you mean ann@gmail.com?',
      'IP address: is not an IP address; the high-risk IP check was skipped',
      'The email address may be mistyped.',
      'Call first (high severity).',
      'Rule “State from zip” could not be evaluated: actions[0].table_name: no lookup table named zips (high severity).',
    ]);
    expect(reviewSentences({ flags: ['manual_review'] }, [])).toEqual(['It is marked for manual review.']);
    expect(reviewSentences(undefined, [])).toEqual([]);
    expect(reviewFlagText({ rule_id: 'rule_3', error: 'conditions.rules[0].value: pattern too costly' })).toBe(
      'Rule rule_3 could not be evaluated: conditions.rules[0].value: pattern too costly.',
    );
  });
});

describe('the route in words', () => {
  it('says "Not routed" when nothing could take the lead, and names the rule otherwise', () => {
    expect(routeText('none', null)).toBe(
      'Not routed: no routing rule matched, and there is no default route or enabled CRM connection',
    );
    expect(routeText('rule', 'Nursing')).toBe('Routed by rule “Nursing”');
  });
});
