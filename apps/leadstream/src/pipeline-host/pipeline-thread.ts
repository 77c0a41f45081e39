/**
 * The pipeline thread of `leadstream start` (docs/architecture.md "Processes and threads"): every
 * stage runs here, on the second core, while the main thread serves HTTP. It opens the engines the
 * stages need; on the embedded engines it owns the event log (and the store connection the log
 * shares) and serves the log to the main thread over the worker channel (log-bridge.ts).
 *
 * Messages from the main thread: `host.stop` (drain, commit, close, answer `host.stopped`),
 * `host.metrics` (this thread's metrics as JSON), `host.readiness` (this thread's checks, the
 * partitions its stages hold among them); the main thread waits a bounded time for each answer
 * (thread-requests.ts). To it: `host.ready`, `host.failed`,
 * `host.crashed` (a stage's consumer died: the process must restart), `host.decisions` (the
 * decisions of a committed batch, embedded engines). On the embedded engines the log's calls
 * (log-bridge.ts), the API's lead changes (lead-change-bridge.ts) and the main thread's store
 * writes (store-bridge.ts) travel the same channel.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  createLogger,
  Lifecycle,
  Metrics,
  pipelineTopics,
  startTracing,
  type ConsumerRunner,
} from '@leadstream/runtime';
import { resolveStages } from '@leadstream/worker';
import { parseConfig } from '../config';
import { openEngines } from '../engines';
import { ensureAllIndexes } from '../indexes';
import { startPipeline } from '../pipeline';
import { serveLeadChanges } from './lead-change-bridge';
import type { Channel } from './channel-calls';
import { serveEventLog } from './log-bridge';
import { serveStore } from './store-bridge';

export interface PipelineThreadData {
  env: Record<string, string | undefined>;
  /** Serve the log to the main thread (the embedded log belongs to this thread alone). */
  serveLog: boolean;
  /** Make the main thread's store writes (the embedded store's only read-write connection is this thread's). */
  serveStore: boolean;
}

const port = parentPort as unknown as Channel & { postMessage(message: unknown): void };
const data = workerData as PipelineThreadData;

async function main(): Promise<void> {
  const config = parseConfig(data.env);
  const logger = createLogger({ level: config.logLevel, role: 'pipeline' });
  // The main thread's registry has the process metrics; this one adds the stages' (summed on /metrics).
  const metrics = new Metrics({ defaultMetrics: false, stuckPartitionMs: config.stuckPartitionMs });
  const lifecycle = new Lifecycle(logger, config.shutdownTimeoutMs);
  // This thread's spans (the stages') go out from here, flushed last when the thread stops (docs/operations.md, "Tracing").
  lifecycle.onStop('tracing', await startTracing(data.env, 'pipeline', logger));
  // On the embedded engines a batch's decisions come straight to the HTTP thread after its commit.
  const decisions = data.serveLog
    ? { decisions: (values: string[]) => port.postMessage({ kind: 'host.decisions', values }) }
    : {};
  const engines = await openEngines(config, logger, metrics, { log: true, store: true }, decisions);
  lifecycle.onStop('engines', () => engines.close());
  // Stuck partitions in the log (registered before the stages, so it stops after their drain).
  const stopStuckLog = metrics.partitions.logStuck(logger);
  lifecycle.onStop('stuck partition log', async () => stopStuckLog());
  await ensureAllIndexes(engines.store);
  await engines.log.ensureTopics(pipelineTopics(config.topicPartitions, config.webhooks.retryScheduleMs));
  if (data.serveStore) {
    // The main thread reads through a read-only connection and sends its writes here (store-bridge.ts).
    const stopServingStore = serveStore(engines.store, port);
    lifecycle.onStop('store bridge', async () => stopServingStore());
  }
  if (data.serveLog) {
    const stopServing = serveEventLog(engines.log, port);
    lifecycle.onStop('log bridge', stopServing);
    // The API's lead changes commit here, with their events, in one transaction.
    const { writer } = engines;
    if (writer.commitLeadChange) {
      const stopChanges = serveLeadChanges({ commitLeadChange: (change) => writer.commitLeadChange!(change) }, port);
      lifecycle.onStop('lead change bridge', async () => stopChanges());
    }
  }
  await startPipeline({
    config,
    engines,
    logger,
    metrics,
    lifecycle,
    stages: resolveStages(undefined, config.pipelineSplit),
    startRunner: async (name: string, runner: ConsumerRunner) => {
      await runner.start();
      lifecycle.onStop(name, () => runner.stop());
      runner.done.catch(() => {
        if (!lifecycle.isStopping) port.postMessage({ kind: 'host.crashed', part: name });
      });
    },
  });
  port.on('message', (message: unknown) => {
    const request = message as { kind?: string; id?: number };
    if (request.kind === 'host.stop') {
      void lifecycle.stop('the main thread is stopping').then(() => port.postMessage({ kind: 'host.stopped' }));
    } else if (request.kind === 'host.readiness') {
      // This thread's checks (the DNS state of MX look-ups among them), for the main thread's /readyz.
      void Promise.all(
        engines.readiness.map(async (check) => {
          try {
            await check.check();
            return { name: check.name, ok: true, details: check.details?.() ?? {} };
          } catch (error) {
            return {
              name: check.name,
              ok: false,
              error: error instanceof Error ? error.message : String(error),
              details: check.details?.() ?? {},
            };
          }
        }),
      ).then((checks) => port.postMessage({ kind: 'host.readiness.reply', id: request.id, checks }));
    } else if (request.kind === 'host.metrics') {
      void metrics.registry
        .getMetricsAsJSON()
        .then((json) => port.postMessage({ kind: 'host.metrics.reply', id: request.id, metrics: json }));
    }
  });
  // The partitions the stages of this thread hold (the main thread has a `partitions` check of its own).
  engines.readiness.push(metrics.partitions.readinessCheck('partitions:pipeline-thread'));
  port.postMessage({ kind: 'host.ready', checks: engines.readiness.map((check) => check.name) });
}

main().catch((error: unknown) => {
  const shape = error as { message?: unknown; code?: unknown; name?: unknown };
  port.postMessage({
    kind: 'host.failed',
    message: String(shape?.message ?? error),
    code: shape?.code,
    name: typeof shape?.name === 'string' ? shape.name : 'Error',
  });
});
