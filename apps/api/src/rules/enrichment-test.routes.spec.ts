/**
 * POST /api/enrichment/test runs off the API's event loop (docs/enrichment-rules.md "Testing a
 * rule"): a heavy but legal rule set keeps the tester's thread busy while the API answers other
 * requests, a test past the time limit is answered 503 SERVICE_UNAVAILABLE in the error format
 * (never a 500), and the next test runs on a fresh thread with the same answer as always.
 *
 * The time limit is the test server's (250 ms instead of 2 s), so the suite stays short; the rule
 * set takes seconds on any machine. No assertion is on time: only on which answer comes first.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnrichmentRuleRepository, LookupTableRepository, RuleMatchRepository } from '@leadstream/dal';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { Collection, DocumentStore, StoredDocument } from '@leadstream/ports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturingMailer, UserApi } from '../accounts/accounts.test-support';
import { startApiTestServer, type ApiTestServer } from '../api.test-support';

/** Resolves the waiting promise when the API reads the organization's enrichment rules. */
let onRulesRead: (() => void) | undefined;

/** The store, telling the test when the enrichment rules are read (the tester's configuration). */
function signallingStore(store: DocumentStore): DocumentStore {
  const bound = <T extends object>(target: T) =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property, object) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
  return new Proxy(store, {
    get(object, property) {
      if (property !== 'collection') {
        const value = Reflect.get(object, property, object) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      }
      return (name: string) => {
        const collection = object.collection(name);
        if (name !== 'enrichment_rules') return collection;
        return new Proxy(bound(collection), {
          get(target, key) {
            if (key !== 'find') return Reflect.get(target, key, target) as unknown;
            return (...args: Parameters<Collection<StoredDocument>['find']>) => {
              onRulesRead?.();
              onRulesRead = undefined;
              return collection.find(...args);
            };
          },
        });
      };
    },
  });
}

let store: DocumentStore;
let server: ApiTestServer;
let owner: Awaited<ReturnType<typeof UserApi.owner>>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadstream-enrichment-test-'));
  store = await openEmbeddedStore({ dataDir: join(dir, 'own-store') });
  server = await startApiTestServer({
    dir,
    mailer: new CapturingMailer(),
    topics: ['calculations.requests', 'config.changed'],
    repositories: [EnrichmentRuleRepository, LookupTableRepository, RuleMatchRepository],
    store: signallingStore(store),
    enrichmentTest: { timeLimitMs: 250 },
  });
  owner = await UserApi.owner(server.url, 'tester.owner@example.edu', 'Tester College');
});

afterAll(async () => {
  await server?.close();
  await store?.close();
});

/**
 * Legal and costly: 20 `in` conditions, each with the 1,000 values a list may hold, over a lead
 * field that is a list of 1,000 tags, compare 20 million pairs before the rule is found not to match.
 */
const codes = Array.from({ length: 1_000 }, (_, index) => `code-${index}`);
const tags = Array.from({ length: 1_000 }, (_, index) => `tag-${index}`);
const heavyRule = {
  name: 'Costly tags',
  priority: 1,
  conditions: {
    operator: 'OR',
    rules: Array.from({ length: 20 }, () => ({ field: 'custom_fields.tags', operator: 'in', value: codes })),
  },
  actions: [{ type: 'flag', reason: 'tagged', severity: 'low' }],
};

describe('POST /api/enrichment/test off the event loop', () => {
  it('answers other requests while a costly test runs, and 503 in the error format when the test passes the time limit', async () => {
    const created = await owner.call('POST', '/api/enrichment/rules', heavyRule);
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    const ruleId = String((created.body['data'] as { id: string }).id);

    const order: string[] = [];
    const rulesRead = new Promise<void>((resolve) => (onRulesRead = resolve));
    const tester = owner
      .call('POST', '/api/enrichment/test', { lead_data: { email: 'ann@college.edu', custom_fields: { tags } } })
      .then((answer) => {
        order.push('enrichment test');
        return answer;
      });
    // The tester has read the rules: from here on it runs them.
    await rulesRead;
    const health = await fetch(`${server.url}/healthz`);
    order.push('healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const answer = await tester;
    expect(order).toEqual(['healthz', 'enrichment test']);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The enrichment test did not finish within 250 ms and was stopped',
        details: [
          {
            field: 'lead_data',
            message:
              "lead_data took longer than 250 ms to run through the organization's rules, lookup tables and calculated fields; test with fewer or simpler rules, or a smaller lead",
          },
        ],
      },
    });

    // The stopped thread was replaced: the same rules on a light lead answer as always.
    const light = await owner.call('POST', '/api/enrichment/test', { lead_data: { email: 'ann@college.edu' } });
    expect(light.status).toBe(200);
    expect(light.body).toEqual({
      results: [
        { rule_id: ruleId, rule_name: 'Costly tags', priority: 1, matched: false, reason: 'conditions not met' },
      ],
      final_outcome: 'accepted',
      rejection_reason: null,
    });
    expect((await owner.call('DELETE', `/api/enrichment/rules/${ruleId}`)).status).toBe(204);
  });
});
