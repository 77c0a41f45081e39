/**
 * The process roles of the leadstream command. `start` runs everything in one process on the
 * embedded engines (or the configured ones); `api`, `worker` and `projector` run one role each
 * against shared engines so operators can scale them separately.
 */
import { join } from 'node:path';
import { symbols as pinoSymbols } from 'pino';
import { createApiApp, DecisionWaiter, ReviewAutoDecider, ReviewQueueRepository } from '@leadstream/api';
import { RATE_LIMITS } from '@leadstream/domain';
import { createDal, LeadRepository, MemoryRateLimiter, ScaledRateLimiter, type Dal } from '@leadstream/dal';
import { createMailer } from '@leadstream/engine-mail';
import { analyticsMigrations } from '@leadstream/engine-clickhouse';
import { createOpsApp } from '@leadstream/http';
import { createProjector, LEAD_EVENTS_TOPIC, rebuildProjection } from '@leadstream/projector';
import {
  ConfigCache,
  createLogger,
  Lifecycle,
  Metrics,
  pipelineTopics,
  startTracing,
  type ConsumerRunner,
  type Logger,
} from '@leadstream/runtime';
import { resolveStages } from '@leadstream/worker';
import { appBaseUrl, parseConfig, type Config } from './config';
import { openEngines, type EngineNeeds } from './engines';
import { listen } from './http-server';
import { ensureAllIndexes } from './indexes';
import { startPipeline } from './pipeline';
import { startPipelineThread } from './pipeline-host/pipeline-host';
import { resolveJwtSecret } from './secrets';
import { resolveCrmCredentialsKey } from './secrets';

/** Every role, as `leadstream <role>` names it (docker-compose.yml runs each; compose-roles.spec.ts checks). */
export const ROLES = ['start', 'api', 'worker', 'projector', 'migrate'] as const;
export type Role = (typeof ROLES)[number];

export interface RoleOptions {
  /** worker: the stages to run. */
  stages?: string[];
  /** projector: exit once every partition is consumed to its end. */
  drain?: boolean;
  /** projector: replay leads.events into a fresh table, swap it in, and exit. */
  rebuild?: boolean;
}

const NEEDS: Record<Role, EngineNeeds> = {
  start: { log: true, store: true, analytics: true },
  api: { log: true, store: true, analytics: true },
  worker: { log: true, store: true },
  projector: { log: true, analytics: true },
  migrate: { analytics: true },
};

export async function runRole(role: Role, options: RoleOptions, env: NodeJS.ProcessEnv): Promise<void> {
  const config: Config = parseConfig(env);
  const logger = createLogger({ level: config.logLevel, role });
  const metrics = new Metrics({ stuckPartitionMs: config.stuckPartitionMs });
  const lifecycle = new Lifecycle(logger, config.shutdownTimeoutMs);
  lifecycle.handleSignals();
  // OTEL_EXPORTER_OTLP_ENDPOINT: spans of this thread (docs/operations.md, "Tracing"), flushed last on the way out.
  lifecycle.onStop('tracing', await startTracing(env, role, logger));

  // `start` runs every stage in a pipeline thread (the second core) and the API, the projector and
  // chDB here; on the embedded engines the thread owns the log and lends it to this thread.
  // On the embedded store the thread also holds the only read-write connection: this thread reads
  // through a read-only one and sends its writes there (pipeline-host/store-bridge.ts).
  const pipelineThread =
    role === 'start' ? await startPipelineThread(env, { log: !config.kafka, store: !config.mongodb }) : undefined;
  const stageFactories = role === 'worker' ? resolveStages(options.stages ?? [], config.pipelineSplit) : [];
  const needs: EngineNeeds = pipelineThread?.log ? { store: true, analytics: true } : NEEDS[role];
  const engines = await openEngines(config, logger, metrics, needs, {
    ...(pipelineThread?.log ? { log: pipelineThread.log } : {}),
    ...(pipelineThread?.connectStore ? { connectStore: pipelineThread.connectStore } : {}),
  });
  lifecycle.onStop('engines', () => engines.close());
  if (pipelineThread) {
    // Stops after everything that uses its log (hooks run newest first), before the engines close.
    lifecycle.onStop('pipeline thread', () => pipelineThread.stop());
    // This thread's read-only store connection closes before the thread's read-write one, which
    // so closes last and checkpoints the WAL into the database file (SQLite leaves that to the
    // last connection to close). Everything that reads the store has stopped by then.
    if (pipelineThread.connectStore) lifecycle.onStop('store reader', () => engines.store.close());
    metrics.addRemote(pipelineThread.metrics);
    // The thread's checks that this thread has no twin of (its DNS state, its log on Kafka...).
    for (const check of pipelineThread.readiness)
      if (!engines.readiness.some((own) => own.name === check.name)) engines.readiness.push(check);
    void pipelineThread.crashed.then((reason) => crash(logger, lifecycle, reason));
  }
  // A partition this process's consumers hold one offset of past STUCK_PARTITION_MS: /readyz says
  // degraded, naming it, and the log says so once (warn partition_stuck) and again when it moves.
  engines.readiness.push(metrics.partitions.readinessCheck());
  const stopStuckLog = metrics.partitions.logStuck(logger);
  lifecycle.onStop('stuck partition log', async () => stopStuckLog());
  logger.info(
    {
      log: needs.log || pipelineThread?.log ? engines.log.engine : null,
      store: needs.store ? engines.store.engine : null,
      analytics: needs.analytics ? engines.analytics.engine : null,
      pipelineThread: pipelineThread !== undefined,
      dataDir: config.dataDir,
    },
    'engines open',
  );

  // The pipeline thread of `start` made them before it said it was ready.
  if (needs.store && !pipelineThread) await ensureAllIndexes(engines.store);
  if (needs.analytics) {
    const applied = await engines.analytics.migrate(analyticsMigrations);
    if (applied.length > 0) logger.info({ applied }, 'analytics migrations applied');
  }
  if (role === 'migrate') {
    await lifecycle.stop('migrations done');
    return;
  }
  if (role === 'projector')
    await engines.log.ensureTopics([{ topic: LEAD_EVENTS_TOPIC, partitions: config.topicPartitions }]);
  else await engines.log.ensureTopics(pipelineTopics(config.topicPartitions, config.webhooks.retryScheduleMs));
  if (role === 'projector' && options.rebuild) {
    await rebuildProjection({ log: engines.log, analytics: engines.analytics, metrics, logger });
    await lifecycle.stop('rebuilt');
    return;
  }

  const runners: ConsumerRunner[] = [];
  const startRunner = async (name: string, runner: ConsumerRunner): Promise<void> => {
    await runner.start();
    runners.push(runner);
    lifecycle.onStop(name, () => runner.stop());
    runner.done.catch(() => crash(logger, lifecycle, name));
  };
  if (role === 'start' || role === 'projector') {
    await startRunner(
      'projector',
      createProjector({
        log: engines.log,
        analytics: engines.analytics,
        metrics,
        logger,
        isStopping: () => lifecycle.isStopping,
      }),
    );
  }
  await startPipeline({ config, engines, logger, metrics, lifecycle, stages: stageFactories, startRunner });
  // The api's own cache of keys, vendors and settings (the stages have theirs).
  let configCache: ConfigCache | undefined;
  // Mail links and the console address: APP_URL, else where the API listens (known once it does).
  let appBase = '';
  let consoleUrl: string | undefined;
  if (role === 'start' || role === 'api') {
    configCache = new ConfigCache({
      log: engines.log,
      store: engines.store,
      logger: logger.child({ part: 'config-cache' }),
    });
    await configCache.start();
    const started = configCache;
    lifecycle.onStop('config cache', () => started.stop());
  }

  if (role === 'start' || role === 'api') {
    const waiter = new DecisionWaiter(engines.log);
    if (pipelineThread?.log) {
      // Embedded engines: the pipeline thread of this process hands over each batch's decisions as it commits.
      pipelineThread.onDecisions((values) => waiter.deliver(values));
    } else {
      await waiter.start();
    }
    lifecycle.onStop('decision waiter', () => waiter.stop());
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: join(config.dataDir, 'outbox'),
      logger,
    });
    lifecycle.onStop('mailer', () => mailer.close());
    if (!configCache) throw new Error('the api needs the configuration cache');
    const app = createApiApp({
      // On the embedded engines this process alone serves the data directory: rate-limit counters
      // live in memory. So they do when only the store is embedded: its writes go to the pipeline
      // thread, and a counter there would make every limited request wait for a turn of it.
      dal: withRateLimitScale(
        {
          ...createDal(engines.store),
          ...(engines.log.engine === 'embedded' || pipelineThread?.connectStore
            ? { rateLimiter: new MemoryRateLimiter() }
            : {}),
        },
        config.rateLimitScale,
      ),
      configCache,
      leads: new LeadRepository(engines.store),
      // Embedded engines: the pipeline thread commits the API's lead changes with their events.
      ...(pipelineThread?.leadChanges ? { leadChanges: pipelineThread.leadChanges } : {}),
      waiter,
      decisionTimeoutMs: config.decisionTimeoutMs,
      trustProxy: config.trustProxy,
      log: engines.log,
      store: engines.store,
      analytics: engines.analytics,
      logger,
      metrics,
      readiness: engines.readiness,
      isStopping: () => lifecycle.isStopping,
      bodyLimit: config.bodyLimit,
      webhooks: { allowInsecureTargets: config.allowInsecureTargets, timeoutMs: config.webhooks.timeoutMs },
      checkResponses: config.checkResponses,
      accounts: {
        jwtSecret: resolveJwtSecret(config, logger),
        appUrl: () => appBase,
        mailer,
        rateLimits: { authentication: RATE_LIMITS.authentication, generalApi: RATE_LIMITS.general_api },
      },
      exports: { files: engines.exportFiles },
      crm: {
        credentialsKey: resolveCrmCredentialsKey(config, logger),
        allowInsecureTargets: config.allowInsecureTargets,
        timeoutMs: config.crm.timeoutMs,
      },
    });
    const server = await listen(app, config.host, config.port);
    lifecycle.onStop('http', () => server.close(config.shutdownTimeoutMs / 2));
    logger.info({ url: server.url }, 'api listening');
    // The review queue's scheduled job (docs/review-queue.md): automatic decisions and the overdue count.
    const reviewJob = new ReviewAutoDecider({
      queue: new ReviewQueueRepository(engines.store),
      log: engines.log,
      logger: logger.child({ part: 'review-queue' }),
      metrics,
    });
    reviewJob.start(Number(process.env['REVIEW_AUTO_DECISION_INTERVAL_MS'] ?? 60_000) || 60_000);
    lifecycle.onStop('review queue job', () => reviewJob.stop());
    // The web console (apps/console) is served by this process at /app: at APP_URL when set (behind a proxy), else where it listens.
    appBase = appBaseUrl(config, server.url);
    consoleUrl = `${appBase}/app/`;
    logger.info({ url: consoleUrl }, 'web console: open this address in a browser');
  } else if (config.opsPort > 0) {
    const app = createOpsApp({ logger, metrics, checks: engines.readiness, isStopping: () => lifecycle.isStopping });
    const server = await listen(app, config.host, config.opsPort);
    lifecycle.onStop('ops http', () => server.close(1_000));
    logger.info({ url: server.url }, 'ops endpoints listening');
  }
  logger.info({ role }, 'ready');
  // The one line a person needs, as plain text under the JSON lines of the start-up.
  if (consoleUrl) printUnderLog(logger, `leadstream is ready: open ${consoleUrl} in a browser`);

  if (options.drain) {
    await Promise.all(runners.map((runner) => runner.waitUntilIdle()));
    logger.info('drained: every partition consumed to its end');
    await lifecycle.stop('drained');
  }
}

/**
 * Writes a plain line to the log's own stream: pino writes stdout asynchronously, so a line
 * written to process.stdout directly could come out before the log lines logged before it.
 */
function printUnderLog(logger: Logger, line: string): void {
  const stream = (logger as unknown as Record<symbol, { write(text: string): unknown } | undefined>)[
    pinoSymbols.streamSym
  ];
  if (stream) stream.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

function crash(logger: Logger, lifecycle: Lifecycle, part: string): void {
  if (lifecycle.isStopping) return;
  logger.fatal({ part }, 'a consumer crashed: stopping the process so a supervisor can restart it');
  process.exitCode = 1;
  void lifecycle.stop(`${part} crashed`).then(() => process.exit(1));
}

/** The dal with every rate limit scaled (RATE_LIMIT_SCALE); the documented limits at scale 1. */
function withRateLimitScale(dal: Dal, scale: number): Dal {
  return scale === 1 ? dal : { ...dal, rateLimiter: new ScaledRateLimiter(dal.rateLimiter, scale) };
}
