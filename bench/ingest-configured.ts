/**
 * Single-lead ingest with a realistically configured organization against the same ingest with
 * nothing configured (docs/performance.md): POST /api/v1/leads/ingest, closed loop at a fixed
 * concurrency, against two deployments side by side:
 *
 * - `plain`: a seeded tenant (organization, vendor, key) and nothing else;
 * - `configured`: the same tenant plus
 *   - 10 enabled webhooks subscribed to every event a webhook may subscribe to (WEBHOOK_EVENTS),
 *     all pointing at one receiver on loopback (a child process that answers 200 and counts);
 *   - 2 CRM connections (`webhook_json`, credentials encrypted as the API stores them) whose calls
 *     go to a second receiver on loopback (answers 200 with a record id, counts per connection),
 *     and a routing rule that sends every lead to both (distribution `all`);
 *   - 100 enabled enrichment rules: 95 whose conditions do not match the bench's leads (nested
 *     AND/OR groups, text and regex operators, evaluated in full) and 5 that do, with set_field
 *     actions.
 *
 * The configuration is written straight into the store through the dal repositories (checked by
 * the same parsers as the API's bodies) while the service is stopped: the embedded store is
 * locked by a running process. Both deployments run with the same service environment
 * (CRM_CREDENTIALS_KEY chosen here, WEBHOOK_ALLOW_INSECURE_TARGETS=true for the loopback targets).
 *
 *   npx tsx bench/ingest-configured.ts [--engines embedded|kafka] [--concurrency 32] [--seconds 8]
 *                                      [--webhook-events lead.created,lead.routed] [--profile]
 *
 * Each deployment is measured twice, alternating (plain, configured, plain, configured), after a
 * warm-up of 3 s in each run; every round's leads are new people. Every answer must be 2xx (a 429
 * would measure the rate limiter). The better run of each counts.
 * Target: configured / plain >= 0.5.
 *
 * After each configured run (while its service still runs, outside the measurement) the bench
 * waits until the receivers got webhook deliveries and calls to both CRM connections, and prints
 * their counts: the configuration was live. Deliveries the service had not made when it stopped
 * stay queued and are made during the next configured run (its backlog is part of what it costs).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  CrmConnectionRepository,
  EnrichmentRuleRepository,
  RoutingRuleRepository,
  WebhookRepository,
} from '@leadstream/dal';
import {
  credentialFieldsSet,
  parseCrmConnectionInput,
  parseEnrichmentRuleCreate,
  parseRoutingRuleCreate,
  WEBHOOK_EVENTS,
  type CrmConnectionRecord,
  type WebhookEventName,
} from '@leadstream/domain';
import { CredentialsCipher, crmCredentialsContext, sealWebhookSecret } from '@leadstream/runtime';
import {
  closedLoop,
  only2xx,
  printLoad,
  deployment,
  enginesOption,
  fixed,
  freePort,
  option,
  post,
  runBenchmark,
  seedTenant,
  startReceiverProcess,
  startService,
  uniqueSubmission,
  type Answer,
  type Deployment,
  type LoadResult,
} from './support/service';

const CONCURRENCY = option('concurrency', 32);
const SECONDS = option('seconds', 8);
const WARMUP_MS = 3_000;
/** `--profile`: the configured service's first run writes CPU profiles (node --cpu-prof, one a thread) to bench/.profiles. */
const PROFILE = process.argv.includes('--profile');
const WEBHOOKS = 10;
/**
 * The events each webhook subscribes to (`--webhook-events lead.created,lead.routed`); default every
 * event a webhook may subscribe to, the most deliveries a lead can cause.
 */
const WEBHOOK_SUBSCRIPTION: string[] = (() => {
  const at = process.argv.indexOf('--webhook-events');
  if (at < 0) return [...WEBHOOK_EVENTS];
  const chosen = (process.argv[at + 1] ?? '').split(',').filter(Boolean);
  const unknown = chosen.filter((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
  if (chosen.length === 0 || unknown.length > 0)
    throw new Error(`--webhook-events takes a comma-separated list of ${WEBHOOK_EVENTS.join(', ')}`);
  return chosen;
})();
const CRM_CONNECTIONS = 2;
const RULES = 100;
/** Every MATCH_EVERY-th enrichment rule matches the bench's leads (5 of 100). */
const MATCH_EVERY = 20;
/** How long a configured run may wait, after its load, for the receivers' first calls. */
const LIVE_WAIT_MS = 60_000;
/** The same for both deployments: the key CRM credentials and webhook secrets are encrypted with, and loopback targets allowed. */
const SERVICE_ENV: Record<string, string> = {
  CRM_CREDENTIALS_KEY: randomBytes(32).toString('hex'),
  WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
};

/** A receiver: answers every POST 200 with a record id, counts POSTs by path, tells the counts at GET. */
const RECEIVER = `
const http = require('node:http');
const counts = {};
let total = 0;
const server = http.createServer((request, response) => {
  if (request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts));
    return;
  }
  request.on('data', () => {});
  request.on('end', () => {
    total++;
    counts[request.url] = (counts[request.url] || 0) + 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'rec_' + total }));
  });
});
server.keepAliveTimeout = 60000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
`;

interface Receiver {
  url: string;
  counts(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const { url, stop } = await startReceiverProcess(RECEIVER);
  return { url, counts: async () => (await (await fetch(url)).json()) as Record<string, number>, stop };
}

const sum = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

function parsed<T>(what: string, result: { ok: true; value: T } | { ok: false; details: unknown }): T {
  if (!result.ok) throw new Error(`${what} is invalid: ${JSON.stringify(result.details)}`);
  return result.value;
}

/**
 * Enrichment rule k. The bench's leads (uniqueSubmission) come from source `search`, utm_source
 * `google`, campaign `fall-2026`, program `MSc Data Science`, emails `prospect.<run>.<i>@example.edu`
 * and US phones: every MATCH_EVERY-th rule matches them, the others fail on their last member
 * (or their only one), so every condition is evaluated.
 */
function enrichmentRule(k: number): Record<string, unknown> {
  const actions = [{ type: 'set_field', field: `enrichment_data.segment_${k}`, value: `segment ${k}` }];
  const base = { name: `Bench rule ${k}`, priority: k, enabled: true, actions };
  if (k % MATCH_EVERY === 0)
    return {
      ...base,
      conditions: {
        operator: 'AND',
        rules: [
          { field: 'source', operator: 'equals', value: 'search' },
          { field: 'utm_source', operator: 'in', value: ['google', 'bing'] },
        ],
      },
    };
  const conditions = [
    {
      operator: 'AND',
      rules: [
        { field: 'utm_source', operator: 'equals', value: 'google' },
        { field: 'utm_campaign', operator: 'equals', value: `spring-${k}` },
      ],
    },
    {
      operator: 'OR',
      rules: [
        { field: 'program_interest', operator: 'contains', value: `Nursing ${k}` },
        { field: 'source', operator: 'in', value: [`fair-${k}`, `radio-${k}`] },
      ],
    },
    {
      operator: 'AND',
      rules: [
        { field: 'source', operator: 'equals', value: 'search' },
        { field: 'email', operator: 'matches_regex', value: `^student\\.${k}\\.\\w+@` },
      ],
    },
    {
      operator: 'AND',
      rules: [
        { field: 'utm_source', operator: 'equals', value: 'google' },
        {
          operator: 'OR',
          rules: [
            { field: 'last_name', operator: 'ends_with', value: `-zz${k}` },
            { field: 'first_name', operator: 'equals', value: `Nobody${k}` },
          ],
        },
      ],
    },
    { operator: 'AND', rules: [{ field: 'phone', operator: 'starts_with', value: `+44${k}` }] },
  ][k % 5];
  return { ...base, conditions };
}

/** The configured deployment's webhooks, CRM connections, routing rule and enrichment rules. */
async function configure(
  target: Deployment,
  organizationId: string,
  webhookReceiver: string,
  crmReceiver: string,
): Promise<void> {
  const store = await target.openStore();
  try {
    await CrmConnectionRepository.ensureIndexes(store);
    await RoutingRuleRepository.ensureIndexes(store);
    await EnrichmentRuleRepository.ensureIndexes(store);
    const at = new Date().toISOString();
    const cipher = new CredentialsCipher(Buffer.from(SERVICE_ENV['CRM_CREDENTIALS_KEY']!, 'hex'));

    const webhooks = new WebhookRepository(store);
    for (let index = 0; index < WEBHOOKS; index++) {
      const id = `wh_bench${String(index).padStart(24, '0')}`;
      await webhooks.create({
        id,
        organization_id: organizationId,
        environment: 'live',
        url: `${webhookReceiver}/hook${index}`,
        events: WEBHOOK_SUBSCRIPTION as WebhookEventName[],
        enabled: true,
        description: `bench webhook ${index}`,
        secret: sealWebhookSecret(cipher, { id, organization_id: organizationId }, `whsec_${randomUUID()}`),
        created_at: at,
        updated_at: at,
        disabled_at: null,
        disabled_reason: null,
        failure_streak_since: at,
      });
    }

    const connections = new CrmConnectionRepository(store);
    const connectionIds: string[] = [];
    for (let index = 0; index < CRM_CONNECTIONS; index++) {
      const input = parseCrmConnectionInput({
        name: `Bench CRM ${index}`,
        type: 'webhook_json',
        settings: { url: `${crmReceiver}/crm${index}` },
        credentials: { auth_value: `Bearer bench-${index}` },
      });
      if (!input.ok) throw new Error(`CRM connection ${index} is invalid: ${JSON.stringify(input.details)}`);
      const id = `crm_bench${String(index).padStart(23, '0')}`;
      const record: CrmConnectionRecord = {
        _id: id,
        organization_id: organizationId,
        environment: 'live',
        name: input.input.name,
        type: input.input.type,
        enabled: true,
        settings_json: JSON.stringify(input.input.settings),
        credentials_encrypted: cipher.encryptJson(input.input.credentials, crmCredentialsContext(organizationId, id)),
        credential_fields: credentialFieldsSet(input.input.credentials),
        created_at: at,
        updated_at: at,
      };
      await connections.insert(record);
      connectionIds.push(id);
    }

    await new RoutingRuleRepository(store).create(
      organizationId,
      `rroute_bench${'0'.repeat(20)}`,
      parsed(
        'the routing rule',
        parseRoutingRuleCreate({
          name: 'Every lead to both CRMs',
          priority: 0,
          distribution: 'all',
          targets: connectionIds.map((connection_id) => ({ connection_id, queue: 'admissions' })),
        }),
      ),
      at,
    );

    const rules = new EnrichmentRuleRepository(store);
    for (let k = 0; k < RULES; k++)
      await rules.create(
        organizationId,
        `rule_bench${String(k).padStart(22, '0')}`,
        parsed(`enrichment rule ${k}`, parseEnrichmentRuleCreate(enrichmentRule(k))),
        at,
      );
    console.log(
      `configured: ${WEBHOOKS} webhooks x ${WEBHOOK_SUBSCRIPTION.length} events, ${CRM_CONNECTIONS} CRM connections with a routing rule to both, ${RULES} enrichment rules (${Math.ceil(RULES / MATCH_EVERY)} match)`,
    );
  } finally {
    await store.close();
  }
}

/** Single ingest of new people against one deployment: warm-up, the measured phase, then `afterLoad` while the service still runs. */
async function ingestRate(
  name: string,
  target: Deployment,
  key: string,
  run: string,
  first: number,
  afterLoad: () => Promise<void> = async () => undefined,
  profile = false,
): Promise<LoadResult> {
  const profileDir = join(process.cwd(), 'bench', '.profiles');
  if (profile) mkdirSync(profileDir, { recursive: true });
  const service = await startService(
    target,
    await freePort(),
    SERVICE_ENV,
    profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  try {
    let counter = first;
    const send = (): Promise<Answer> =>
      post(`${service.url}/api/v1/leads/ingest`, key, JSON.stringify(uniqueSubmission(run, counter++)));
    only2xx(`${name}, warm-up`, await closedLoop(send, CONCURRENCY, WARMUP_MS));
    const result = only2xx(name, await closedLoop(send, CONCURRENCY, SECONDS * 1000));
    printLoad(name, result, 26);
    await afterLoad();
    return result;
  } finally {
    await service.stop();
  }
}

/** Waits (up to LIVE_WAIT_MS) until webhooks were delivered and both CRM connections called; prints the counts. */
async function provedLive(webhookReceiver: Receiver, crmReceiver: Receiver): Promise<void> {
  const deadline = Date.now() + LIVE_WAIT_MS;
  for (;;) {
    const deliveries = await webhookReceiver.counts();
    const calls = await crmReceiver.counts();
    const crmPaths = Array.from({ length: CRM_CONNECTIONS }, (_, index) => `/crm${index}`);
    const live = sum(deliveries) > 0 && crmPaths.every((path) => (calls[path] ?? 0) > 0);
    if (live || Date.now() > deadline) {
      console.log(
        `  receivers so far: ${sum(deliveries)} webhook deliveries (${Object.keys(deliveries).length} of ${WEBHOOKS} webhooks), CRM calls ${crmPaths.map((path) => `${path}: ${calls[path] ?? 0}`).join(', ')}`,
      );
      if (!live)
        throw new Error(
          `the configuration was not live within ${LIVE_WAIT_MS / 1000} s: ${JSON.stringify({ deliveries, calls })}`,
        );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function main(): Promise<void> {
  const engines = enginesOption();
  console.log(
    `single ingest, configured organization against plain, ${engines} engines, concurrency ${CONCURRENCY}, ${SECONDS} s per run after ${WARMUP_MS / 1000} s of warm-up`,
  );
  const plainTarget = deployment(engines);
  const configuredTarget = deployment(engines);
  const webhookReceiver = await startReceiver();
  const crmReceiver = await startReceiver();
  try {
    const plainStore = await plainTarget.openStore();
    const plain = await seedTenant(plainStore);
    await plainStore.close();
    const configuredStore = await configuredTarget.openStore();
    const configured = await seedTenant(configuredStore);
    await configuredStore.close();
    await configure(configuredTarget, configured.organizationId, webhookReceiver.url, crmReceiver.url);

    // Side by side: each deployment twice, alternating; the better of its two runs counts.
    const runs: Array<['plain' | 'configured', LoadResult]> = [];
    for (let round = 0; round < 2; round++) {
      const first = round * 1_000_000;
      runs.push([
        'plain',
        await ingestRate(
          `plain (round ${round + 1})`,
          plainTarget,
          plain.key,
          `${randomUUID().slice(0, 6)}p${round}`,
          first,
        ),
      ]);
      runs.push([
        'configured',
        await ingestRate(
          `configured (round ${round + 1})`,
          configuredTarget,
          configured.key,
          `${randomUUID().slice(0, 6)}c${round}`,
          first,
          () => provedLive(webhookReceiver, crmReceiver),
          PROFILE && round === 0,
        ),
      ]);
    }
    const best = (kind: string): number =>
      Math.max(...runs.filter(([name]) => name === kind).map(([, result]) => result.rps));
    console.log(
      `configured / plain = ${(best('configured') / best('plain')).toFixed(3)} (target >= 0.5; better run of each: ${fixed(best('configured'))} / ${fixed(best('plain'))} req/s)`,
    );
  } finally {
    await webhookReceiver.stop();
    await crmReceiver.stop();
    await plainTarget.cleanup();
    await configuredTarget.cleanup();
  }
}

runBenchmark(main);
