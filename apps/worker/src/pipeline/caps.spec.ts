/**
 * The caps' decision for a batch (decideCaps) on the embedded store's counters: a cap's
 * conditions decide which leads it counts and refuses, the first cap without room refuses (in
 * capCheckOrder), a lead a later cap refuses is uncounted from the earlier ones, sandbox leads are
 * neither counted nor refused, and the lead that fills a cap carries its cap.reached.
 */
import { CapCounterRepository, CapRepository } from '@leadstream/dal';
import { capCheckOrder, capPeriodAt, type Cap, type LeadRecord } from '@leadstream/domain';
import { describe, expect, it } from 'vitest';
import { useEmbeddedEngines } from '../test-support/embedded-engines';
import { leadCommand } from '../test-support/lead-command';
import { decideCaps, type CapCandidate } from './caps';

const engines = useEmbeddedEngines('caps-decision');
const NOW = new Date('2026-11-27T15:00:00.000Z');

function cap(id: string, settings: Partial<Cap>): Cap {
  return {
    id,
    organization_id: 'org_caps',
    name: id,
    scope: 'organization',
    vendor_id: null,
    maximum: 1,
    duration: 1,
    duration_units: 'day',
    time_zone: 'Europe/Berlin',
    conditions: null,
    reason: 'cap_reached',
    enabled: true,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...settings,
  };
}

function candidate(vendorId: string, program: string, environment: 'live' | 'sandbox' = 'live'): CapCandidate {
  const message = leadCommand('org_caps', vendorId, { environment });
  const lead = {
    _id: message.lead_id,
    organization_id: 'org_caps',
    environment,
    vendor_id: vendorId,
    program_interest: program,
  } as unknown as LeadRecord;
  return { message, lead, subject: { program_interest: program, email: `${message.lead_id}@example.edu` } };
}

describe('decideCaps', () => {
  it('counts by conditions and scope, refuses with the first full cap, uncounts a lead a later cap refuses', async () => {
    const counters = new CapCounterRepository(engines.store);
    const deps = { caps: new CapRepository(engines.store), counters };
    const nursing = cap('cap_nursing', {
      maximum: 1,
      conditions: { operator: 'AND', rules: [{ field: 'program_interest', operator: 'equals', value: 'Nursing' }] },
    });
    const total = cap('cap_total', { maximum: 10 });
    const vendor = cap('cap_v1', { scope: 'vendor', vendor_id: 'v1', maximum: 1, reason: 'v1_full' });
    const caps = new Map([['org_caps', capCheckOrder([vendor, total, nursing])]]);
    const a = candidate('v1', 'Nursing');
    const b = candidate('v2', 'nursing');
    const c = candidate('v1', 'Law');
    const d = candidate('v2', 'Law');
    const sandbox = candidate('v1', 'Nursing', 'sandbox');

    const verdicts = await decideCaps(deps, caps, [a, b, c, d, sandbox], NOW);

    // a fills the nursing cap and v1's cap; b is nursing too (conditions ignore case); c is v1's second lead.
    expect(
      [a, b, c, d, sandbox].map((member) => verdicts.refused.get(member.message.message_id)?.id ?? 'accepted'),
    ).toEqual(['accepted', 'cap_nursing', 'cap_v1', 'accepted', 'accepted']);
    const key = (capId: string) => ({
      organizationId: 'org_caps',
      capId,
      period: capPeriodAt(NOW, 1, 'day', 'Europe/Berlin'),
    });
    // The total counted a, c and d, then gave c's slot back when v1's cap refused it; b never got that far.
    expect(await counters.count(key('cap_total'))).toBe(2);
    expect(await counters.count(key('cap_nursing'))).toBe(1);
    expect(await counters.count(key('cap_v1'))).toBe(1);
    expect(
      (verdicts.reached.get(a.message.message_id) ?? []).map((reached) => [reached.cap.id, reached.count]),
    ).toEqual([
      ['cap_nursing', 1],
      ['cap_v1', 1],
    ]);
    expect([...verdicts.reached.keys()]).toEqual([a.message.message_id]);

    // The same batch decided again: the same verdicts, nothing counted twice, cap.reached again for the same lead.
    const again = await decideCaps(deps, caps, [a, b, c, d, sandbox], NOW);
    expect([...again.refused.keys()]).toEqual([...verdicts.refused.keys()]);
    expect(await counters.count(key('cap_total'))).toBe(2);
    expect([...again.reached.keys()]).toEqual([a.message.message_id]);
  });
});
