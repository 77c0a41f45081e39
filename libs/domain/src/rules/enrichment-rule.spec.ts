import { describe, expect, it } from 'vitest';
import { MAX_REGEX_CONDITIONS, parseEnrichmentRuleCreate } from './enrichment-rule';

const webhookRule = (headers: unknown) => ({
  name: 'Notify',
  priority: 1,
  conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'is_not_empty' }] },
  actions: [{ type: 'webhook', url: 'https://hooks.example.com/x', headers }],
});

describe('webhook action headers', () => {
  it('keeps ordinary headers', () => {
    const parsed = parseEnrichmentRuleCreate(webhookRule({ 'X-Api-Key': 'k1', Accept: 'application/json' }));
    expect(parsed.ok && parsed.value.actions[0]).toEqual({
      type: 'webhook',
      url: 'https://hooks.example.com/x',
      method: 'POST',
      headers: { 'X-Api-Key': 'k1', Accept: 'application/json' },
    });
  });

  it('refuses a value with CR LF (header injection), naming the header', () => {
    expect(parseEnrichmentRuleCreate(webhookRule({ 'X-A': 'v\r\nX-Injected: 4' }))).toEqual({
      ok: false,
      details: [{ field: 'actions[0].headers.X-A', message: expect.stringContaining('value of header X-A') as string }],
    });
  });

  it('refuses Host and Content-Length, and a name that is not a token', () => {
    const parsed = parseEnrichmentRuleCreate(webhookRule({ Host: 'evil.example', 'Content-Length': '5', 'X A': 'v' }));
    expect(parsed.ok ? [] : parsed.details.map((detail) => detail.field)).toEqual([
      'actions[0].headers.Host',
      'actions[0].headers.Content-Length',
      'actions[0].headers.X A',
    ]);
  });

  it('still refuses values that are not text, or longer than 1000 characters', () => {
    expect(parseEnrichmentRuleCreate(webhookRule({ 'X-A': 1 })).ok).toBe(false);
    expect(parseEnrichmentRuleCreate(webhookRule({ 'X-A': 'a'.repeat(1_001) })).ok).toBe(false);
    expect(parseEnrichmentRuleCreate(webhookRule(['X-A'])).ok).toBe(false);
  });
});

describe('matches_regex conditions', () => {
  const ruleWith = (patterns: string[]) => ({
    name: 'Patterns',
    priority: 1,
    conditions: {
      operator: 'OR',
      rules: [
        {
          operator: 'AND',
          rules: patterns.map((value) => ({ field: 'first_name', operator: 'matches_regex', value })),
        },
      ],
    },
    actions: [{ type: 'flag', reason: 'x', severity: 'low' }],
  });

  it('refuses a pattern too costly to compile with a plain message naming the condition', () => {
    expect(
      parseEnrichmentRuleCreate(
        ruleWith(['^[A-Z][a-z]+$', '.{0,1000}.{0,1000}.{0,1000}.{0,1000}.{0,1000}.{0,1000}.{0,1000}.{0,1000}q$']),
      ),
    ).toEqual({
      ok: false,
      details: [
        {
          field: 'conditions.rules[0].rules[1].value',
          message: 'pattern too costly: counted repetitions add up to 8000 (at most 500)',
        },
      ],
    });
  });

  it('refuses more matches_regex conditions than one save may compile, before compiling any', () => {
    const patterns = Array.from({ length: MAX_REGEX_CONDITIONS + 1 }, (_, index) => `^a{0,400}b${index}$`);
    expect(parseEnrichmentRuleCreate(ruleWith(patterns))).toEqual({
      ok: false,
      details: [
        {
          field: 'conditions',
          message: `conditions may hold at most ${MAX_REGEX_CONDITIONS} matches_regex conditions (found ${MAX_REGEX_CONDITIONS + 1})`,
        },
      ],
    });
    expect(parseEnrichmentRuleCreate(ruleWith(patterns.slice(0, MAX_REGEX_CONDITIONS))).ok).toBe(true);
  });
});
