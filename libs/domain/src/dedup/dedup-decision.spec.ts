import { describe, expect, it } from 'vitest';
import { DEFAULT_DEDUP_CONFIG, type DedupConfig } from './dedup-config';
import { decideDuplicate, toCheckDuplicateResult, toDuplicateConflict } from './dedup-decision';
import { candidateLead } from './dedup.fixtures';

const now = new Date('2025-01-10T12:00:00.000Z');
const original = candidateLead({
  id: 'lead_1',
  email: 'john.smith@gmail.com',
  phone: '+15551234567',
  first_name: 'John',
  last_name: 'Smith',
  vendor_id: 'vendor_a',
  vendor_group: 'group_1',
  created_at: '2025-01-10T10:00:00.000Z',
});
const incoming = { email: 'JohnSmith+apply@gmail.com', first_name: 'Jon', last_name: 'Smith', vendor_id: 'vendor_b' };

const decide = (config: DedupConfig, over: Partial<Parameters<typeof decideDuplicate>[0]> = {}) =>
  decideDuplicate({ incoming, candidates: [original], config, vendorId: 'vendor_b', now, ...over });

describe('decideDuplicate', () => {
  it('same email is a duplicate under the default configuration, with a 4.10 log entry', () => {
    const decision = decide(DEFAULT_DEDUP_CONFIG);
    expect(decision).toMatchObject({
      duplicate: true,
      action: 'reject',
      matchedLeadId: 'lead_1',
      similarityScore: 100,
      matchedFields: ['email'],
      matchDetails: { email: 100, name: 97.33 },
    });
    expect(decision.log).toEqual({
      timestamp: '2025-01-10T12:00:00.000Z',
      incoming_lead: { id: null, email: 'JohnSmith+apply@gmail.com', first_name: 'Jon', last_name: 'Smith' },
      matched_lead_id: 'lead_1',
      match_fields: {
        email: { score: 100, method: 'email_normalized' },
        phone: { score: null, method: 'phone_digits' },
      },
      final_score: 100,
      threshold: 85,
      action_taken: 'reject',
      reason: 'Duplicate of lead_1: score 100 >= threshold 85 (or; matched on email); action reject.',
    });
  });

  it('maps to the check-duplicate body and the 409 data', () => {
    const decision = decide(DEFAULT_DEDUP_CONFIG);
    expect(toCheckDuplicateResult(decision)).toEqual({
      is_duplicate: true,
      matched_lead_id: 'lead_1',
      similarity_score: 100,
      match_details: { email: 100, name: 97.33 },
    });
    if (!decision.duplicate) throw new Error('expected a duplicate');
    expect(toDuplicateConflict(decision)).toEqual({
      duplicate_of: 'lead_1',
      similarity_score: 100,
      matched_fields: ['email'],
    });
  });

  // Name-only configuration: "Jon Smith" vs "John Smith" scores 97.33.
  const byName = (threshold: number): DedupConfig => ({
    ...DEFAULT_DEDUP_CONFIG,
    threshold,
    match_fields: [{ field: 'name', algorithm: 'jaro_winkler' }],
  });
  it.each([
    [97.33, true],
    [97.34, false],
    [97, true],
  ])('threshold %d: score 97.33 is a duplicate = %s (equal counts)', (threshold, duplicate) => {
    expect(decide(byName(threshold)).duplicate).toBe(duplicate);
  });

  it('below the threshold: not a duplicate, logged with the closest lead', () => {
    const decision = decide(byName(98));
    expect(decision.duplicate).toBe(false);
    expect(decision.log).toMatchObject({
      matched_lead_id: null,
      final_score: 97.33,
      action_taken: 'none',
      reason: 'Closest lead lead_1 scored 97.33, below the threshold of 98 (or); accepted as a new lead.',
    });
  });

  it('enabled:false never finds a duplicate', () => {
    const decision = decide({ ...DEFAULT_DEDUP_CONFIG, enabled: false });
    expect(decision).toEqual({
      duplicate: false,
      log: expect.objectContaining({
        action_taken: 'none',
        final_score: null,
        reason: 'Deduplication is disabled; the lead was not checked.',
      }),
    });
  });

  it('no candidates: not a duplicate', () => {
    const decision = decide(DEFAULT_DEDUP_CONFIG, { candidates: [] });
    expect(decision.duplicate).toBe(false);
    expect(decision.log.reason).toBe(
      'No lead sharing an email, phone or name key was received in the last 24 hour(s); accepted as a new lead.',
    );
  });

  it.each<[string, DedupConfig, string, boolean, string | null]>([
    [
      'vendor override of the action',
      { ...DEFAULT_DEDUP_CONFIG, vendor_overrides: { vendor_b: { action: 'merge' } } },
      'vendor_b',
      true,
      'merge',
    ],
    [
      'override for another vendor does not apply',
      { ...DEFAULT_DEDUP_CONFIG, vendor_overrides: { vendor_c: { action: 'merge' } } },
      'vendor_b',
      true,
      'reject',
    ],
    [
      'vendor override of the threshold',
      { ...byName(85), vendor_overrides: { vendor_b: { threshold: 99 } } },
      'vendor_b',
      false,
      null,
    ],
    // The original is 2 h old: outside a 1 h window unless the vendor looks back further.
    ['1 h window excludes the 2 h old lead', { ...DEFAULT_DEDUP_CONFIG, window_hours: 1 }, 'vendor_b', false, null],
    [
      'vendor override of the window to all time',
      { ...DEFAULT_DEDUP_CONFIG, window_hours: 1, vendor_overrides: { vendor_b: { window_hours: null } } },
      'vendor_b',
      true,
      'reject',
    ],
    [
      'scope within_vendor excludes another vendor',
      { ...DEFAULT_DEDUP_CONFIG, scope: 'within_vendor' },
      'vendor_b',
      false,
      null,
    ],
    [
      'scope within_vendor, same vendor',
      { ...DEFAULT_DEDUP_CONFIG, scope: 'within_vendor' },
      'vendor_a',
      true,
      'reject',
    ],
    [
      'scope within_vendor without a vendor falls back to all',
      { ...DEFAULT_DEDUP_CONFIG, scope: 'within_vendor' },
      '',
      true,
      'reject',
    ],
    [
      'action allow still reports the duplicate',
      { ...DEFAULT_DEDUP_CONFIG, action: 'allow' },
      'vendor_b',
      true,
      'allow',
    ],
  ])('%s', (_name, config, vendorId, duplicate, action) => {
    const decision = decide(config, { vendorId: vendorId === '' ? null : vendorId });
    expect(decision.duplicate).toBe(duplicate);
    expect(decision.log.action_taken).toBe(action ?? 'none');
    if (decision.duplicate) expect(decision.action).toBe(action);
  });

  it.each([
    ['group_1', true],
    ['group_2', false],
  ])('scope vendor_group: incoming in %s → duplicate %s', (group, duplicate) => {
    const decision = decide(
      { ...DEFAULT_DEDUP_CONFIG, scope: 'vendor_group' },
      { incoming: { ...incoming, vendor_group: group } },
    );
    expect(decision.duplicate).toBe(duplicate);
  });

  it('never matches a lead against itself', () => {
    const decision = decide(DEFAULT_DEDUP_CONFIG, { incoming: { ...incoming, id: 'lead_1' } });
    expect(decision.duplicate).toBe(false);
  });
});

describe('decideDuplicate and vendor types', () => {
  const inquiry = candidateLead({
    id: 'lead_inquiry',
    email: 'ada@example.edu',
    vendor_id: 'inquiry_co',
    vendor_type: 'inquiry',
    created_at: '2025-01-10T10:00:00.000Z',
  });
  const application = { email: 'ada@example.edu', vendor_id: 'apply_portal', vendor_type: 'application' };

  it("does not take a person's application for a duplicate of their inquiry", () => {
    const decision = decideDuplicate({
      incoming: application,
      candidates: [inquiry],
      config: DEFAULT_DEDUP_CONFIG,
      vendorId: 'apply_portal',
      now,
    });
    expect(decision.duplicate).toBe(false);
    expect(decision.log.matched_lead_id).toBeNull();
  });

  it('still finds an application that repeats an earlier application', () => {
    const earlier = candidateLead({
      id: 'lead_application',
      email: 'ada@example.edu',
      vendor_id: 'apply_portal',
      vendor_type: 'application',
      created_at: '2025-01-10T11:00:00.000Z',
    });
    const decision = decideDuplicate({
      incoming: application,
      candidates: [inquiry, earlier],
      config: DEFAULT_DEDUP_CONFIG,
      vendorId: 'apply_portal',
      now,
    });
    expect(decision).toMatchObject({ duplicate: true, matchedLeadId: 'lead_application' });
  });

  it('compares across types for a vendor whose override says so', () => {
    const config: DedupConfig = {
      ...DEFAULT_DEDUP_CONFIG,
      vendor_overrides: { apply_portal: { compare_across_types: true } },
    };
    const decision = decideDuplicate({
      incoming: application,
      candidates: [inquiry],
      config,
      vendorId: 'apply_portal',
      now,
    });
    expect(decision).toMatchObject({ duplicate: true, matchedLeadId: 'lead_inquiry' });
  });

  it('compares with every lead when a side has no known vendor type', () => {
    const decision = decideDuplicate({
      incoming: { email: 'ada@example.edu', vendor_id: null },
      candidates: [inquiry],
      config: DEFAULT_DEDUP_CONFIG,
      vendorId: null,
      now,
    });
    expect(decision).toMatchObject({ duplicate: true, matchedLeadId: 'lead_inquiry' });
  });
});
