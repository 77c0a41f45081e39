/**
 * The enrichment tester's threads (enrichment-tester.ts) with the real thread code: the answer is
 * exactly what `runEnrichmentTest` gives in this thread, a test past the time limit is refused with
 * 503 and its thread replaced, and a test beyond the waiting room is refused at once.
 */
import {
  DomainError,
  type CalculatedFieldDefinition,
  type EnrichmentConfig,
  type EnrichmentRule,
} from '@leadstream/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { runEnrichmentTest } from './enrichment-test';
import { EnrichmentTester } from './enrichment-tester';

const at = '2026-11-24T00:00:00.000Z';
const now = new Date(at);
const rule = (id: string, priority: number, rest: Pick<EnrichmentRule, 'conditions' | 'actions'>): EnrichmentRule => ({
  id,
  name: id,
  description: null,
  priority,
  enabled: true,
  created_at: at,
  updated_at: at,
  ...rest,
});
const calc = (name: string, formula: string): CalculatedFieldDefinition => ({
  id: `calc_${name}`,
  name,
  label: name,
  formula,
  type: 'text',
  recalculate_on_change: false,
  description: null,
});

const config: EnrichmentConfig = {
  rules: [
    rule('rule_state', 1, {
      conditions: { operator: 'AND', rules: [{ field: 'custom_fields.zip', operator: 'is_not_empty' }] },
      actions: [
        {
          type: 'lookup',
          target_field: 'enrichment_data.state',
          table_name: 'zips',
          lookup_field: 'custom_fields.zip',
        },
      ],
    }),
    rule('rule_score', 2, {
      conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'is_not_empty' }] },
      actions: [
        { type: 'calculate', field: 'custom_fields.score', formula: '{{custom_fields.gpa | times: 10}}' },
        { type: 'flag', reason: 'strong', severity: 'high' },
      ],
    }),
    rule('rule_tests', 3, {
      conditions: { operator: 'OR', rules: [{ field: 'email', operator: 'ends_with', value: '@test.invalid' }] },
      actions: [{ type: 'reject', reason: 'test address' }],
    }),
    rule('rule_tail', 4, {
      conditions: { operator: 'AND', rules: [{ field: 'label', operator: 'contains', value: 'ada' }] },
      actions: [{ type: 'set_field', field: 'enrichment_data.tier', value: '{{label}}' }],
    }),
  ],
  lookupTables: [{ name: 'zips', mappings: { '90210': 'CA' } }],
  calculatedFields: [calc('label', '{{first_name}} {{last_name}}')],
  customFieldTypes: new Map([['score', 'number']]),
};

const leads: Array<Record<string, unknown>> = [
  { email: 'ada@college.edu', first_name: 'Ada', last_name: 'Lee', custom_fields: { zip: '90210', gpa: 3.8 } },
  { email: 'bot@test.invalid', first_name: 'Bot' },
  { email: 'x@college.edu', custom_fields: { zip: '00000', gpa: 'n/a' } },
];

/** A rule set that takes seconds on any machine: 20 million comparisons before it fails to match. */
const codes = Array.from({ length: 1_000 }, (_, index) => `code-${index}`);
const costly: EnrichmentConfig = {
  ...config,
  rules: [
    rule('rule_costly', 1, {
      conditions: {
        operator: 'OR',
        rules: Array.from({ length: 20 }, () => ({
          field: 'custom_fields.tags',
          operator: 'in' as const,
          value: codes,
        })),
      },
      actions: [{ type: 'flag', reason: 'tagged', severity: 'low' }],
    }),
  ],
};
const costlyLead = {
  email: 'ann@college.edu',
  custom_fields: { tags: Array.from({ length: 1_000 }, (_, index) => `tag-${index}`) },
};

const testers: EnrichmentTester[] = [];
const tester = (options: ConstructorParameters<typeof EnrichmentTester>[0]) => {
  const made = new EnrichmentTester(options);
  testers.push(made);
  return made;
};

afterAll(async () => {
  await Promise.all(testers.map((made) => made.close()));
});

describe('EnrichmentTester', () => {
  it('answers exactly what runEnrichmentTest answers in this thread, as JSON', async () => {
    const pool = tester({ threads: 2 });
    const answers = await Promise.all(leads.map((lead) => pool.run(lead, config, now)));
    expect(answers.map((answer) => JSON.stringify(answer))).toEqual(
      leads.map((lead) => JSON.stringify(runEnrichmentTest(lead, config, now))),
    );
    expect(answers.map((answer) => answer.final_outcome)).toEqual(['flagged', 'rejected', 'flagged']);
  });

  it('refuses a test past the time limit with 503, and runs the next one on a fresh thread', async () => {
    const pool = tester({ threads: 1, timeLimitMs: 200 });
    const stopped = await pool.run(costlyLead, costly, now).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(stopped).toBeInstanceOf(DomainError);
    expect(stopped).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The enrichment test did not finish within 200 ms and was stopped',
      details: [{ field: 'lead_data' }],
    });
    expect(await pool.run(leads[0]!, config, now)).toEqual(runEnrichmentTest(leads[0]!, config, now));
  });

  it('refuses a test with 503 and Retry-After when every thread is busy and the waiting room is full, and the waiting ones on close', async () => {
    const pool = tester({ threads: 1, maxWaiting: 1, timeLimitMs: 60_000 });
    const running = pool.run(costlyLead, costly, now).catch((error: unknown) => error);
    const waiting = pool.run(leads[0]!, config, now).catch((error: unknown) => error);
    const refused = await pool.run(leads[0]!, config, now).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Too many enrichment tests are running; try again in a moment',
      extra: { retry_after: 60 },
    });
    await pool.close();
    expect(await waiting).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The enrichment tester is shutting down',
    });
    // The running test's thread was terminated under it: it does not answer as if it had finished.
    expect(await running).toBeInstanceOf(Error);
  });
});
