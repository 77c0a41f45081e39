/**
 * What GET /api/leads `search` matches (docs/decisions.md "Lead search"): the search copies every
 * lead write stores (leadSearchFields) and how a query is read (parseLeadSearch).
 */
import { describe, expect, it } from 'vitest';
import { applyLeadPatch, withDerivedFields } from './lead-patch';
import { parseLeadSearch } from './lead-list-query';
import { leadSearchFields, normalizeSearchText } from './lead-search';
import type { LeadRecord } from './lead';

describe('normalizeSearchText', () => {
  it('drops accents and case, and folds compatibility forms and runs of spaces', () => {
    expect(normalizeSearchText('  Zoë   Ångström-Muñoz ')).toBe('zoe angstrom-munoz');
    expect(normalizeSearchText('İSTANBUL')).toBe('istanbul');
    expect(normalizeSearchText('ＡＢＣ')).toBe('abc'); // full-width letters
    expect(normalizeSearchText('a\u0000b\tc')).toBe('ab c');
  });
});

describe('leadSearchFields', () => {
  it('stores the email and the full name normalized, and every digit of the phone', () => {
    expect(
      leadSearchFields({ email: 'Zoe.Lopez@Gmail.com', first_name: 'Zoë', last_name: 'López', phone: '+14155552671' }),
    ).toMatchObject({
      search_text: ['zoe.lopez@gmail.com', 'zoe lopez'],
      search_phone: '14155552671',
      // The lowercase copies stay: they sort email and names, and answer one- and two-character searches.
      email_lower: 'zoe.lopez@gmail.com',
      first_name_lower: 'zoë',
      phone_digits: '4155552671',
    });
  });

  it('holds null, not an empty list, when there is nothing to search', () => {
    expect(leadSearchFields({ email: '', first_name: null, last_name: '  ', phone: null })).toMatchObject({
      search_text: null,
      search_phone: null,
    });
    expect(leadSearchFields({ email: 'a@b.edu', last_name: 'Lee' })).toMatchObject({
      search_text: ['a@b.edu', 'lee'],
      search_phone: null,
    });
  });

  it('is recomputed by a patch of email, names or phone, and by a merge', () => {
    const lead = {
      _id: 'l',
      email: 'old@example.edu',
      first_name: 'Ann',
      last_name: 'Lee',
      phone: '+14155550100',
      custom_fields: {},
    } as unknown as LeadRecord;
    const { set } = applyLeadPatch(lead, {
      email: 'new@gmail.com',
      phone: '+14155552671',
      text: { last_name: 'Müller' },
    });
    expect(set).toMatchObject({ search_text: ['new@gmail.com', 'ann muller'], search_phone: '14155552671' });
    expect(withDerivedFields({ ...lead, first_name: 'Zoë' })).toMatchObject({
      search_text: ['old@example.edu', 'zoe lee'],
      search_phone: '14155550100',
    });
  });
});

describe('parseLeadSearch', () => {
  it('reads 3 or more characters as a part to find anywhere, accents and case dropped', () => {
    expect(parseLeadSearch('GMAIL')).toEqual({ mode: 'contains', text: 'gmail', phoneDigits: null });
    expect(parseLeadSearch('Zoë López')).toEqual({ mode: 'contains', text: 'zoe lopez', phoneDigits: null });
    expect(parseLeadSearch('example.edu')).toEqual({ mode: 'contains', text: 'example.edu', phoneDigits: null });
  });

  it('also looks for 4 or more digits of a phone-like search in the phone', () => {
    expect(parseLeadSearch('555-2671')).toEqual({ mode: 'contains', text: '555-2671', phoneDigits: '5552671' });
    expect(parseLeadSearch('+1 (415) 555-2671')).toMatchObject({ phoneDigits: '14155552671' });
    expect(parseLeadSearch('2671')).toEqual({ mode: 'contains', text: '2671', phoneDigits: '2671' });
    // Three digits are text only (too many phones hold any three digits).
    expect(parseLeadSearch('555')).toEqual({ mode: 'contains', text: '555', phoneDigits: null });
    expect(parseLeadSearch('ann 2671')).toMatchObject({ phoneDigits: null });
  });

  it('reads one or two characters as the start of an email, first or last name (lowercase), as before', () => {
    expect(parseLeadSearch('Ad')).toEqual({ mode: 'prefix', text: 'ad', phoneDigits: null });
    expect(parseLeadSearch('5')).toEqual({ mode: 'prefix', text: '5', phoneDigits: null });
  });
});
