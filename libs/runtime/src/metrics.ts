import {
  AggregatorRegistry,
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';
import { PartitionWatch } from './partition-watch';

/** Buckets of a lead's latencies (its timeline): milliseconds in memory to minutes of CRM retries. */
const LEAD_LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800];

/** Another registry's metrics, as `getMetricsAsJSON` gives them (the pipeline thread's). */
export type RemoteMetrics = () => Promise<MetricObjectWithValues<MetricValue<string>>[]>;

/**
 * The Prometheus metrics of one process. A registry per process (not the global one) so tests
 * can build several apps in one process without "metric already registered" errors.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'leadstream_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly messagesConsumed = new Counter({
    name: 'leadstream_messages_consumed_total',
    help: 'Log records handled and committed, by topic and consumer group',
    labelNames: ['topic', 'group'] as const,
    registers: [this.registry],
  });

  readonly messagesProduced = new Counter({
    name: 'leadstream_messages_produced_total',
    help: 'Log records produced, by topic',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });

  readonly consumerLag = new Gauge({
    name: 'leadstream_consumer_lag',
    help: 'Records not yet committed by a consumer group, per partition owned by this process',
    labelNames: ['topic', 'partition', 'group'] as const,
    registers: [this.registry],
  });

  readonly consumerCrashes = new Counter({
    name: 'leadstream_consumer_crashes_total',
    help: 'Consumers stopped by a handler failure',
    labelNames: ['group'] as const,
    registers: [this.registry],
  });

  readonly deadLettered = new Counter({
    name: 'leadstream_messages_dead_lettered_total',
    help: 'Records moved to a dead-letter topic after bounded retries',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });

  readonly outboundWaitSeconds = new Counter({
    name: 'leadstream_outbound_wait_seconds_total',
    help: 'Time outbound stages (notify, deliver, crm-sync, rule-webhook, activity) waited for a busy intake on a saturated thread (OUTBOUND_SHARE_PERCENT)',
    registers: [this.registry],
  });

  readonly stageRetries = new Counter({
    name: 'leadstream_stage_retries_total',
    help: 'Batches a stage decided or committed again: conflict (a lead written meanwhile), transient (an engine outage), failure (a record that failed, before it is dead-lettered)',
    labelNames: ['stage', 'reason'] as const,
    registers: [this.registry],
  });

  readonly leadDecisions = new Counter({
    name: 'leadstream_lead_decisions_total',
    help: "Intake decisions committed, by outcome (accepted, invalid, rejected, duplicate, merged: the decision messages' outcome), counted once the batch that decides them commits; a redelivered command decides nothing again and is not counted again",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly stageBatchDuration = new Histogram({
    name: 'leadstream_stage_batch_duration_seconds',
    help: 'Time to decide and commit one batch of a stage, by stage (its consumer group: a stage chain under its head stage, a retry group under its own name), retries of the batch included',
    labelNames: ['stage'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  /** A lead's time in each stage it passed (its timeline, docs/timeline.md), by stage only. */
  readonly leadStageDuration = new Histogram({
    name: 'leadstream_lead_stage_duration_seconds',
    help: "Time a lead spent in a stage (its timeline entry's duration), by stage, observed once the stage's write commits",
    labelNames: ['stage'] as const,
    buckets: LEAD_LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly leadStageWait = new Histogram({
    name: 'leadstream_lead_stage_wait_seconds',
    help: 'Time a lead waited before a stage (from leaving the stage before it until entering this one), by stage',
    labelNames: ['stage'] as const,
    buckets: LEAD_LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly leadSubmissionToDecision = new Histogram({
    name: 'leadstream_lead_submission_to_decision_seconds',
    help: 'Time from the submission of a lead until the intake decided it (routed, held for review or rejected)',
    buckets: LEAD_LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly leadSubmissionToCrm = new Histogram({
    name: 'leadstream_lead_submission_to_crm_seconds',
    help: 'Time from the submission of a lead until its CRM sync succeeded',
    buckets: LEAD_LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly webhooksDisabled = new Counter({
    name: 'leadstream_webhooks_disabled_total',
    help: 'Webhooks disabled automatically after WEBHOOK_AUTO_DISABLE_AFTER deliveries in a row failed, counted once the disable is committed (a webhook.disabled event produced again for a redelivery is not counted)',
    registers: [this.registry],
  });

  readonly projectorInsertFailures = new Counter({
    name: 'leadstream_projector_insert_failures_total',
    help: 'Inserts of lead events into the analytics engine that failed and are being retried (an analytics outage)',
    registers: [this.registry],
  });

  readonly dnsAvailable = new Gauge({
    name: 'leadstream_dns_available',
    help: '1 when MX lookups work (the canary domain resolves), 0 when DNS is unavailable and leads are accepted with a warning',
    registers: [this.registry],
  });

  /** The partitions this process's consumer groups have in hand (ConsumerRunner keeps it up to date). */
  readonly partitions: PartitionWatch;

  readonly partitionStuck = new Gauge({
    name: 'leadstream_partition_stuck_seconds',
    help: 'Seconds a partition has had the same offset in hand (a batch being handled or retried), for each partition in hand longer than STUCK_PARTITION_MS; absent when none is',
    labelNames: ['group', 'topic', 'partition'] as const,
    registers: [this.registry],
    collect: () => {
      this.partitionStuck.reset();
      for (const stuck of this.partitions.stuck()) {
        this.partitionStuck.set(
          { group: stuck.group, topic: stuck.topic, partition: String(stuck.partition) },
          stuck.in_hand_seconds,
        );
      }
    },
  });

  readonly remoteMetricsFailures = new Counter({
    name: 'leadstream_remote_metrics_failures_total',
    help: "Scrapes of /metrics that went without another thread's metrics (the pipeline thread did not answer in time)",
    registers: [this.registry],
  });

  /** Where the embedded store's commit count comes from, when this process has one (engines.ts sets it). */
  sqliteCommitSource: (() => number) | undefined;

  readonly sqliteCommits = new Gauge({
    name: 'leadstream_sqlite_commits',
    help: 'Write transactions committed by the embedded engines since the process started (benchmarks: commits per lead)',
    registers: [this.registry],
    collect: () => {
      if (this.sqliteCommitSource) this.sqliteCommits.set(this.sqliteCommitSource());
    },
  });

  /** Where the MongoDB-protocol store's command count comes from, when this process has one (engines.ts sets it). */
  storeCommandSource: (() => number) | undefined;

  readonly storeCommands = new Gauge({
    name: 'leadstream_mongodb_commands',
    help: 'Commands sent to the MongoDB-protocol server since the process started (benchmarks: round trips per lead)',
    registers: [this.registry],
    collect: () => {
      if (this.storeCommandSource) this.storeCommands.set(this.storeCommandSource());
    },
  });

  constructor(options: { defaultMetrics?: boolean; stuckPartitionMs?: number; clock?: () => number } = {}) {
    this.partitions = new PartitionWatch({
      ...(options.stuckPartitionMs !== undefined ? { stuckAfterMs: options.stuckPartitionMs } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'leadstream_' });
  }

  private readonly remotes: RemoteMetrics[] = [];

  /** Adds another thread's metrics to what /metrics shows: counters and gauges summed with this registry's. */
  addRemote(source: RemoteMetrics): void {
    this.remotes.push(source);
  }

  /**
   * This registry's metrics with the other threads' summed in. A thread that does not answer
   * leaves its part out: the text says so in a comment line (`# missing: <why>`, which scrapers
   * ignore) and leadstream_remote_metrics_failures_total counts it.
   */
  async render(): Promise<string> {
    if (this.remotes.length === 0) return this.registry.metrics();
    const missing: string[] = [];
    const remote = await Promise.all(
      this.remotes.map((source) =>
        source().catch((error: unknown) => {
          this.remoteMetricsFailures.inc();
          missing.push((error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' '));
          return [];
        }),
      ),
    );
    const text = await AggregatorRegistry.aggregate([await this.registry.getMetricsAsJSON(), ...remote]).metrics();
    return missing.length === 0 ? text : `${text}${missing.map((why) => `# missing: ${why}\n`).join('')}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
