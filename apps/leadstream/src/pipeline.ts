/**
 * The pipeline stages of a process (the `worker` role, or the pipeline thread of `start`): one
 * consumer group per stage, the configuration cache they read, MX look-ups, and the outbox
 * sweeper where the store and the log are different systems.
 */
import { createMxResolver } from '@leadstream/engine-dns';
import {
  ConfigCache,
  IntakePriority,
  isTransientError,
  type ConsumerRunner,
  type Lifecycle,
  type Logger,
  type Metrics,
} from '@leadstream/runtime';
import { OutboxSweeper, type StageFactory } from '@leadstream/worker';
import type { Config } from './config';
import type { Engines } from './engines';
import { resolveCrmCredentialsKey } from './secrets';

export interface PipelineParts {
  config: Config;
  engines: Engines;
  logger: Logger;
  metrics: Metrics;
  lifecycle: Lifecycle;
  stages: StageFactory[];
  /** Starts a runner and registers its stop hook (roles.ts: a crash stops the process). */
  startRunner: (name: string, runner: ConsumerRunner) => Promise<void>;
}

export async function startPipeline({
  config,
  engines,
  logger,
  metrics,
  lifecycle,
  stages,
  startRunner,
}: PipelineParts): Promise<void> {
  if (stages.length === 0) return;
  const crm = stages.some((factory) => factory.name === 'crm-sync')
    ? {
        credentialsKey: resolveCrmCredentialsKey(config, logger),
        retrySchedule: config.crm.retrySchedule,
        timeoutMs: config.crm.timeoutMs,
      }
    : undefined;
  // Webhook secrets are stored encrypted with the same key as CRM credentials; deliver opens them to sign.
  const webhookSecretsKey = stages.some((factory) => factory.name === 'deliver')
    ? resolveCrmCredentialsKey(config, logger)
    : undefined;
  // Settings, custom fields, dedup settings and vendors are cached until a change is known
  // (config.changed, or a newer version stamped on a command), never on a timer.
  const configCache = new ConfigCache({
    log: engines.log,
    store: engines.store,
    logger: logger.child({ part: 'config-cache' }),
  });
  await configCache.start();
  lifecycle.onStop('stage config cache', () => configCache.stop());
  const mx = config.mxCheck
    ? createMxResolver({
        ...(config.dnsServers ? { servers: config.dnsServers } : {}),
        timeoutMs: config.mxTimeoutMs,
        onHealthChange: (available) => {
          metrics.dnsAvailable.set(available ? 1 : 0);
          logger.warn({ available }, 'DNS availability changed');
        },
      })
    : undefined;
  if (mx) {
    metrics.dnsAvailable.set(1);
    engines.readiness.push({
      name: 'dns',
      check: async () => undefined,
      details: () => ({ mx_check: 'on', ...mx.health() }),
    });
  }
  // Intake first: while the intake chain keeps this thread saturated, the outbound stages beside it
  // (webhooks, CRM calls) keep only their share of it (OUTBOUND_SHARE_PERCENT, docs/pipeline.md).
  const priority =
    config.outboundShare < 1
      ? new IntakePriority({
          share: config.outboundShare,
          onWait: (ms) => metrics.outboundWaitSeconds.inc(ms / 1000),
        })
      : undefined;
  for (const factory of stages) {
    const runner = factory.create({
      log: engines.log,
      store: engines.store,
      writer: engines.writer,
      config: configCache,
      isTransient: isTransientError,
      exportFiles: engines.exportFiles,
      metrics,
      logger,
      mx,
      outbound: { allowInsecureTargets: config.allowInsecureTargets, timeoutMs: config.ruleWebhookTimeoutMs },
      ...(crm ? { crm } : {}),
      webhooks: config.webhooks,
      reprocess: config.reprocess,
      ...(webhookSecretsKey ? { webhookSecretsKey } : {}),
      isStopping: () => lifecycle.isStopping,
      ...(priority ? { priority } : {}),
    });
    await startRunner(`stage ${factory.name}`, runner);
  }
  // Outputs a crash left in outboxes between a write and its produce: stage batches on Kafka +
  // MongoDB (the embedded engines write those in one transaction), and the API's lead and vendor
  // changes on every engine.
  const sweeper = new OutboxSweeper({
    store: engines.store,
    log: engines.log,
    logger: logger.child({ part: 'outbox-sweeper' }),
  });
  sweeper.start();
  lifecycle.onStop('outbox sweeper', () => sweeper.stop());
}
