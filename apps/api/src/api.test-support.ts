/**
 * The API test server the feature test supports (accounts, exports) build on: the production
 * `createApiApp` on 127.0.0.1:0 over the embedded log, and the embedded store unless the test
 * brings one, in the caller's temp dir. Wired as `leadstream start` wires the api on the embedded
 * engines: a started ConfigCache, and rate-limit counters in memory.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  AccountTokenRepository,
  createDal,
  ensureIndexes,
  LeadRepository,
  MemoryRateLimiter,
  SessionRepository,
  UserRepository,
  type Dal,
} from '@leadstream/dal';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { nodeHandler } from '@leadstream/http';
import type { Analytics, DocumentStore, EventLog, Mailer } from '@leadstream/ports';
import { ConfigCache, Metrics, TOPICS } from '@leadstream/runtime';
import type Koa from 'koa';
import { pino } from 'pino';
import type { AccountsConfig } from './accounts/accounts.context';
import { createApiApp, type ApiDependencies } from './api.app';
import { DecisionWaiter } from './ingestion/decision-waiter';

export const TEST_JWT_SECRET = 'test-secret-of-at-least-32-characters!';

/** The topics the ingestion routes produce to and wait on; every test server has them. */
const LEAD_TOPICS = [TOPICS.events, TOPICS.decisions, TOPICS.submitted];

/** Analytics is not used by the routes under test; any call is a test bug. */
const noAnalytics = new Proxy({} as Analytics, {
  get(_target, property) {
    if (property === 'then') return undefined;
    throw new Error(`analytics.${String(property)} is not available in the API test server`);
  },
});

export interface ApiTestServerOptions {
  /** A fresh temp dir for the embedded engines (and whatever else the caller keeps there); `close` removes it. */
  dir: string;
  mailer: Mailer;
  /** Topics beyond the lead topics, one partition each. */
  topics?: string[];
  /** Repositories whose indexes the routes under test need beyond the accounts layer's. */
  repositories?: Array<{ ensureIndexes(store: DocumentStore): Promise<void> }>;
  /** An existing store (e.g. FerretDB); the test server then does not close it. */
  store?: DocumentStore;
  rateLimits?: AccountsConfig['rateLimits'];
  /** The accounts clock (session tokens, rate limits). */
  clock?: () => Date;
  /** Mounts the export routes. */
  exports?: ApiDependencies['exports'];
  /** CRM connections: credentials key, outbound settings of connection tests. */
  crm?: ApiDependencies['crm'];
  /** Webhooks and rule webhooks: whether http and non-public targets are allowed (WEBHOOK_ALLOW_INSECURE_TARGETS). */
  webhooks?: ApiDependencies['webhooks'];
  /** An analytics engine for the routes that read it (the funnel); without it any use is a test bug. */
  analytics?: Analytics;
  /** Where the app logs (tests that read what it logs); silent by default. */
  logger?: ApiDependencies['logger'];
  /** The enrichment tester's threads and time limit (POST /api/enrichment/test). */
  enrichmentTest?: ApiDependencies['enrichmentTest'];
}

export interface ApiTestServer {
  url: string;
  app: Koa;
  store: DocumentStore;
  log: EventLog;
  dal: Dal;
  configCache: ConfigCache;
  mailer: Mailer;
  close(): Promise<void>;
}

export async function startApiTestServer(options: ApiTestServerOptions): Promise<ApiTestServer> {
  const { dir, mailer } = options;
  const store = options.store ?? (await openEmbeddedStore({ dataDir: join(dir, 'store') }));
  const log = await openEmbeddedLog({ dataDir: join(dir, 'log') });
  await log.ensureTopics([...LEAD_TOPICS, ...(options.topics ?? [])].map((topic) => ({ topic, partitions: 1 })));
  await ensureIndexes(store);
  for (const repository of [UserRepository, SessionRepository, AccountTokenRepository, ...(options.repositories ?? [])])
    await repository.ensureIndexes(store);
  const logger = options.logger ?? pino({ level: 'silent' });
  // One process holds the embedded log: its rate-limit counters can live in memory.
  const dal: Dal = {
    ...createDal(store),
    ...(log.engine === 'embedded' ? { rateLimiter: new MemoryRateLimiter() } : {}),
  };
  const configCache = new ConfigCache({ log, store, logger });
  await configCache.start();
  const app = createApiApp({
    checkResponses: true,
    log,
    store,
    analytics: options.analytics ?? noAnalytics,
    logger,
    metrics: new Metrics(),
    readiness: [],
    isStopping: () => false,
    dal,
    configCache,
    leads: new LeadRepository(store),
    waiter: new DecisionWaiter(log),
    decisionTimeoutMs: 1_000,
    accounts: {
      jwtSecret: TEST_JWT_SECRET,
      appUrl: 'https://app.test/',
      mailer,
      rateLimits: options.rateLimits ?? { authentication: 1_000, generalApi: 1_000 },
      ...(options.clock ? { clock: options.clock } : {}),
    },
    exports: options.exports,
    crm: options.crm,
    webhooks: options.webhooks,
    enrichmentTest: options.enrichmentTest,
  });
  const server: Server = createServer(nodeHandler(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    store,
    log,
    dal,
    configCache,
    mailer,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await configCache.stop();
      await log.close();
      if (!options.store) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
