/**
 * The process roles of the leadstream command. `start` runs everything in one process on the
 * embedded engines (or the configured ones); `api`, `worker` and `projector` run one role each
 * against shared engines so operators can scale them separately.
 */
import { join } from 'node:path';
import { createApiApp, DecisionWaiter } from '@leadstream/api';
import { RATE_LIMITS } from '@leadstream/domain';
import { createDal, LeadRepository, MemoryRateLimiter } from '@leadstream/dal';
import { createMxResolver } from '@leadstream/engine-dns';
import { createMailer } from '@leadstream/engine-mail';
import { analyticsMigrations } from '@leadstream/engine-clickhouse';
import { createOpsApp } from '@leadstream/http';
import { createProjector, LEAD_EVENTS_TOPIC } from '@leadstream/projector';
import { ConfigCache, createLogger, isTransientError, Lifecycle, Metrics, pipelineTopics, type ConsumerRunner, type Logger } from '@leadstream/runtime';
import { OutboxSweeper, resolveStages, STAGES } from '@leadstream/worker';
import { parseConfig, type Config } from './config';
import { openEngines, type EngineNeeds } from './engines';
import { listen } from './http-server';
import { ensureAllIndexes } from './indexes';
import { resolveJwtSecret } from './secrets';

export type Role = 'start' | 'api' | 'worker' | 'projector' | 'migrate';

export interface RoleOptions {
  /** worker: the stages to run. */
  stages?: string[];
  /** projector: exit once every partition is consumed to its end. */
  drain?: boolean;
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
  const metrics = new Metrics();
  const lifecycle = new Lifecycle(logger, config.shutdownTimeoutMs);
  lifecycle.handleSignals();

  const stageFactories = role === 'worker' ? resolveStages(options.stages ?? []) : role === 'start' ? [...STAGES.values()] : [];
  const engines = await openEngines(config, logger, metrics, NEEDS[role]);
  lifecycle.onStop('engines', () => engines.close());
  logger.info(
    { log: NEEDS[role].log ? engines.log.engine : null, store: NEEDS[role].store ? engines.store.engine : null, analytics: NEEDS[role].analytics ? engines.analytics.engine : null, dataDir: config.dataDir },
    'engines open',
  );

  if (NEEDS[role].store) await ensureAllIndexes(engines.store);
  if (NEEDS[role].analytics) {
    const applied = await engines.analytics.migrate(analyticsMigrations);
    if (applied.length > 0) logger.info({ applied }, 'analytics migrations applied');
  }
  if (role === 'migrate') {
    await lifecycle.stop('migrations done');
    return;
  }
  if (role === 'projector') await engines.log.ensureTopics([{ topic: LEAD_EVENTS_TOPIC, partitions: config.topicPartitions }]);
  else await engines.log.ensureTopics(pipelineTopics(config.topicPartitions));

  const runners: ConsumerRunner[] = [];
  const startRunner = async (name: string, runner: ConsumerRunner): Promise<void> => {
    await runner.start();
    runners.push(runner);
    lifecycle.onStop(name, () => runner.stop());
    runner.done.catch(() => crash(logger, lifecycle, name));
  };
  if (role === 'start' || role === 'projector') {
    await startRunner('projector', createProjector({ log: engines.log, analytics: engines.analytics, metrics, logger }));
  }
  const mx = config.mxCheck && stageFactories.length > 0
    ? createMxResolver({ ...(config.dnsServers ? { servers: config.dnsServers } : {}), timeoutMs: config.mxTimeoutMs, onHealthChange: (available) => {
        metrics.dnsAvailable.set(available ? 1 : 0);
        logger.warn({ available }, 'DNS availability changed');
      } })
    : undefined;
  if (mx) {
    metrics.dnsAvailable.set(1);
    engines.readiness.push({ name: 'dns', check: async () => undefined, details: () => ({ mx_check: 'on', ...mx.health() }) });
  }
  // Keys, vendors, settings, custom fields and dedup settings are cached until a change is known
  // (config.changed, or a newer version stamped on a command), never on a timer. One per process,
  // shared by the stages and the api.
  let configCache: ConfigCache | undefined;
  if (stageFactories.length > 0 || role === 'start' || role === 'api') {
    configCache = new ConfigCache({ log: engines.log, store: engines.store, logger: logger.child({ part: 'config-cache' }) });
    await configCache.start();
    const started = configCache;
    lifecycle.onStop('config cache', () => started.stop());
  }
  for (const factory of stageFactories) {
    const deps = {
      log: engines.log,
      store: engines.store,
      writer: engines.writer,
      ...(configCache ? { config: configCache } : {}),
      isTransient: isTransientError,
      exportFiles: engines.exportFiles,
      metrics,
      logger,
      mx,
      isStopping: () => lifecycle.isStopping,
    };
    await startRunner(`stage ${factory.name}`, factory.create(deps));
  }
  if (stageFactories.length > 0 && !engines.writer.atomic) {
    // Outputs a crash left in lead outboxes, for leads whose message never comes again.
    const sweeper = new OutboxSweeper({ store: engines.store, log: engines.log, logger: logger.child({ part: 'outbox-sweeper' }) });
    sweeper.start();
    lifecycle.onStop('outbox sweeper', () => sweeper.stop());
  }

  if (role === 'start' || role === 'api') {
    const waiter = new DecisionWaiter(engines.log);
    await waiter.start();
    lifecycle.onStop('decision waiter', () => waiter.stop());
    const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: join(config.dataDir, 'outbox'), logger });
    lifecycle.onStop('mailer', () => mailer.close());
    if (!configCache) throw new Error('the api needs the configuration cache');
    const app = createApiApp({
      // On the embedded engines this process alone serves the data directory: rate-limit counters live in memory.
      dal: { ...createDal(engines.store), ...(engines.log.engine === 'embedded' ? { rateLimiter: new MemoryRateLimiter() } : {}) },
      configCache,
      leads: new LeadRepository(engines.store),
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
      accounts: {
        jwtSecret: resolveJwtSecret(config, logger),
        appUrl: config.appUrl,
        mailer,
        rateLimits: { authentication: RATE_LIMITS.authentication, generalApi: RATE_LIMITS.general_api },
      },
      exports: { files: engines.exportFiles },
    });
    const server = await listen(app, config.host, config.port);
    lifecycle.onStop('http', () => server.close(config.shutdownTimeoutMs / 2));
    logger.info({ url: server.url }, 'api listening');
  } else if (config.opsPort > 0) {
    const app = createOpsApp({ logger, metrics, checks: engines.readiness, isStopping: () => lifecycle.isStopping });
    const server = await listen(app, config.host, config.opsPort);
    lifecycle.onStop('ops http', () => server.close(1_000));
    logger.info({ url: server.url }, 'ops endpoints listening');
  }
  logger.info({ role }, 'ready');

  if (options.drain) {
    await Promise.all(runners.map((runner) => runner.waitUntilIdle()));
    logger.info('drained: every partition consumed to its end');
    await lifecycle.stop('drained');
  }
}

function crash(logger: Logger, lifecycle: Lifecycle, part: string): void {
  if (lifecycle.isStopping) return;
  logger.fatal({ part }, 'a consumer crashed: stopping the process so a supervisor can restart it');
  process.exitCode = 1;
  void lifecycle.stop(`${part} crashed`).then(() => process.exit(1));
}
