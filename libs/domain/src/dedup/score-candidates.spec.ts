import { describe, expect, it } from 'vitest';
import { DEFAULT_DEDUP_CONFIG, type DedupCombination, type DedupConfig } from './dedup-config';
import { findBestMatch, scoreCandidate } from './score-candidates';
import { candidateLead } from './dedup.fixtures';

const config = (combination: DedupCombination, threshold = 85): DedupConfig => ({
  ...DEFAULT_DEDUP_CONFIG,
  threshold,
  combination,
  match_fields: [
    { field: 'email', algorithm: 'email_normalized', weight: 0.5 },
    { field: 'phone', algorithm: 'phone_digits', weight: 0.3 },
    { field: 'name', algorithm: 'jaro_winkler', weight: 0.2 },
  ],
});

const original = candidateLead({
  id: 'lead_1',
  email: 'john.smith@gmail.com',
  phone: '+15551234567',
  first_name: 'John',
  last_name: 'Smith',
});

describe('scoreCandidate', () => {
  it.each<[string, DedupCombination, Parameters<typeof scoreCandidate>[0], number, string[]]>([
    ['same email, OR', 'or', { email: 'JohnSmith+x@gmail.com', phone: '555 999 0000' }, 100, ['email']],
    ['same email, different phone, AND', 'and', { email: 'johnsmith@gmail.com', phone: '555 999 0000' }, 0, ['email']],
    [
      'all fields, AND takes the worst',
      'and',
      { email: 'johnsmith@gmail.com', phone: '(555) 123-4567', first_name: 'Jon', last_name: 'Smith' },
      97.33,
      ['email', 'phone', 'name'],
    ],
    // Weighted: 0.5×100 + 0.3×0 + 0.2×97.33.
    [
      'weighted',
      'weighted',
      { email: 'johnsmith@gmail.com', phone: '555 999 0000', first_name: 'Jon', last_name: 'Smith' },
      69.47,
      ['email', 'name'],
    ],
    // Phone missing on the incoming side: its 0.3 is spread, (0.5×100 + 0.2×97.33) / 0.7.
    [
      'weighted, phone not comparable',
      'weighted',
      { email: 'johnsmith@gmail.com', first_name: 'Jon', last_name: 'Smith' },
      99.24,
      ['email', 'name'],
    ],
    // AND ignores a field that cannot be compared rather than failing on it.
    [
      'AND, phone not comparable',
      'and',
      { email: 'johnsmith@gmail.com', first_name: 'John', last_name: 'Smith' },
      100,
      ['email', 'name'],
    ],
    ['OR, only a different phone', 'or', { email: 'other@school.edu', phone: '5550000000' }, 0, []],
    ['nothing comparable', 'or', { first_name: 'John' }, 0, []],
  ])('%s → %d', (_name, combination, incoming, score, matched) => {
    const result = scoreCandidate(incoming, original, config(combination));
    expect(result.score).toBe(score);
    expect(result.matched_fields).toEqual(matched);
  });

  it('logs every configured field with its method, null when not comparable', () => {
    const result = scoreCandidate({ email: 'johnsmith@gmail.com' }, original, config('or'));
    expect(result.match_fields).toEqual({
      email: { score: 100, method: 'email_normalized' },
      phone: { score: null, method: 'phone_digits' },
      name: { score: null, method: 'jaro_winkler' },
    });
    expect(result.comparable_fields).toBe(1);
  });

  it('finds "Jon Smith" a near-duplicate of "John Smith" by Jaro-Winkler', () => {
    const nameOnly: DedupConfig = {
      ...DEFAULT_DEDUP_CONFIG,
      match_fields: [{ field: 'name', algorithm: 'jaro_winkler' }],
    };
    expect(scoreCandidate({ first_name: 'Jon', last_name: 'Smith' }, original, nameOnly)).toMatchObject({
      score: 97.33,
      matched_fields: ['name'],
    });
  });
});

describe('findBestMatch', () => {
  const older = candidateLead({ id: 'lead_old', email: 'a@school.edu', created_at: '2025-01-01T00:00:00.000Z' });
  const newer = candidateLead({ id: 'lead_new', email: 'a@school.edu', created_at: '2025-01-05T00:00:00.000Z' });
  const weaker = candidateLead({
    id: 'lead_weak',
    email: 'b@school.edu',
    phone: '5551234567',
    created_at: '2024-12-01T00:00:00.000Z',
  });
  const cfg = config('weighted');

  it('returns null without candidates', () => {
    expect(findBestMatch({ email: 'a@school.edu' }, [], cfg)).toBeNull();
  });
  it('prefers the highest score', () => {
    expect(findBestMatch({ email: 'a@school.edu', phone: '5551234567' }, [weaker, newer], cfg)?.candidate.id).toBe(
      'lead_new',
    );
  });
  it.each([[[newer, older]], [[older, newer]]])(
    'breaks ties toward the oldest lead, the original (order %#)',
    (candidates) => {
      expect(findBestMatch({ email: 'a@school.edu' }, candidates, cfg)?.candidate.id).toBe('lead_old');
    },
  );
});
