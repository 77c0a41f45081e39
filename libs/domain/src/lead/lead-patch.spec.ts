import { describe, expect, it } from 'vitest';
import { startLead } from './lead.machine';
import type { LeadRecord } from './lead';
import { applyLeadPatch, parseLeadPatch } from './lead-patch';

const context = { customFields: [], defaultPhoneCountry: 'US' };
const lead = {
  _id: 'lead_1',
  email: 'a@example.edu',
  phone: '+14155550101',
  first_name: 'Ann',
  last_name: 'Lee',
  status: 'active',
  custom_fields: {},
  actor: startLead('lead_1'),
} as unknown as LeadRecord;

describe('lead patch', () => {
  it('normalizes email and phone like ingestion and reports old and new values', () => {
    const parsed = parseLeadPatch({ email: ' B@Example.EDU ', phone: '(415) 555-0199', last_name: 'Lee' }, context);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.details));
    const { set, changes } = applyLeadPatch(lead, parsed.patch);
    expect(changes).toEqual({
      email: { old: 'a@example.edu', new: 'B@example.edu' },
      phone: { old: '+14155550101', new: '+14155550199' },
    });
    expect(set).toMatchObject({ email_lower: 'b@example.edu', phone_digits: '4155550199', bk_phone: '4155550199' });
  });

  it('refuses a custom field value nested deeper than 10 levels, as ingestion does', () => {
    const withProfile = { ...context, customFields: [{ name: 'profile', type: 'object' as const, required: false }] };
    const nest = (levels: number): unknown => (levels === 0 ? 1 : { a: nest(levels - 1) });
    expect(parseLeadPatch({ custom_fields: { profile: nest(10) } }, withProfile).ok).toBe(true);
    const parsed = parseLeadPatch({ custom_fields: { profile: nest(11) } }, withProfile);
    expect(parsed.ok ? [] : parsed.details).toEqual([
      { field: 'custom_fields.profile', message: 'custom_fields.profile must not nest deeper than 10 levels' },
    ]);
  });

  it('refuses unknown and bookkeeping fields', () => {
    const parsed = parseLeadPatch({ version: 9, actor: {}, status: 'archived' }, context);
    expect(parsed.ok ? [] : parsed.details.map((detail) => detail.field)).toEqual(['version', 'actor']);
  });
});
