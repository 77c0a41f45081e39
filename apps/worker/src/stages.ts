import {
  CalculationJobRepository,
  createDal,
  CustomFieldRepository,
  EnrichmentConfigReader,
  ValidationRuleRepository,
  DedupRepository,
  ExportRepository,
  LeadRepository,
} from '@leadstream/dal';
import { RoutingConfigReader, RoutingCounterRepository } from '@leadstream/dal';
import { CapCounterRepository, CapRepository } from '@leadstream/dal';
import { ReprocessJobRepository } from '@leadstream/dal';
import { WebhookDeliveryRepository, WebhookRepository } from '@leadstream/dal';
import { SuppressionRepository } from '@leadstream/dal';
import { ErasureRepository } from '@leadstream/dal';
import { capsClock, DEFAULT_WEBHOOK_RETRY_DELAYS_MS, formatRetryDelay } from '@leadstream/domain';
import type { DocumentStore, EventLog, ExportFileStore, MxResolver } from '@leadstream/ports';
import type { CrmRetryStep } from '@leadstream/domain';
import {
  ConsumerRunner,
  CredentialsCipher,
  type IntakePriority,
  type Logger,
  type Metrics,
  WEBHOOK_DELIVERIES_TOPIC,
  webhookRetryTopic,
} from '@leadstream/runtime';
import { type BatchStage, BatchStageHandler, type BatchStageHandlerOptions } from './batch/batch-stage';
import type { BatchWriter } from './batch/batch-write';
import { RetryingStageRunner } from './batch/retrying-stage-runner';
import { type ConfigSource, uncachedConfig } from './batch/config-source';
import type { LeadStage } from './batch/lead-stage';
import { chainName, StageChainRunner } from './batch/stage-chain';
import { EXPORT_REQUESTS_TOPIC, ExportStageRunner, ExportWorker } from './exports';
import { activityStage } from './pipeline/activity.stage';
import { CrmSyncRunner } from './pipeline/crm-sync.stage.runner';
import { dedupStage } from './pipeline/dedup.stage';
import { enrichStage } from './pipeline/enrich.stage';
import { recalculateStage } from './pipeline/recalculate.stage';
import { reprocessStage } from './reprocess/reprocess.stage';
import { routeStage } from './pipeline/route.stage';
import { ruleWebhookStage } from './pipeline/rule-webhook.stage';
import { validateStage } from './pipeline/validate.stage';
import { notifyStage } from './pipeline/notify.stage';
import { DEFAULT_WEBHOOK_TIMEOUT_MS, deliverStage } from './pipeline/deliver.stage';

export interface StageDependencies {
  log: EventLog;
  store: DocumentStore;
  /** Commits each batch's writes, outputs and offset (engines.ts picks the atomic or the outbox one). */
  writer: BatchWriter;
  /** Configuration, cached until it changes (the runtime's ConfigCache); the store itself when absent. */
  config?: ConfigSource;
  /** Which failures are worth retrying without end (an outage) rather than dead-lettering. */
  isTransient: (error: unknown) => boolean;
  metrics: Metrics;
  logger: Logger;
  /** Undefined when MX checks are off for the process. */
  mx: MxResolver | undefined;
  /** Calls to organizations' URLs (rule webhooks): time limit, and whether http and non-public targets are allowed (tests). */
  outbound?: { allowInsecureTargets: boolean; timeoutMs: number };
  /** CRM syncs: the credentials key, the retry schedule (CRM_RETRY_SCHEDULE) and the time limit of a call; required by crm-sync only. */
  crm?: { credentialsKey: Buffer; retrySchedule: CrmRetryStep[]; timeoutMs: number };
  /** Webhook deliveries (notify, deliver): attempt time limit, retry schedule, automatic disable; the documented defaults when absent. */
  webhooks?: { timeoutMs: number; retryScheduleMs: readonly number[]; autoDisableAfter: number };
  /** The key webhook secrets are stored encrypted with (CRM_CREDENTIALS_KEY, as the API's); required by deliver only. */
  webhookSecretsKey?: Buffer;
  /** Reprocessing jobs: leads per batch and the pause between batches (the stage's defaults when absent). */
  reprocess?: { batchSize: number; pauseMs: number; share: number };
  /** Where the export stage writes CSV files; required by that stage only. */
  exportFiles?: ExportFileStore;
  isStopping?: () => boolean;
  /** Intake first: the thread's gate between the intake chain and the outbound stages (absent: no priority). */
  priority?: IntakePriority;
  now?: () => Date;
}

/** A pipeline stage: a consumer group on its input topic (docs/pipeline.md). */
export interface StageFactory {
  name: string;
  /** A chain's stages, in order (its name is the first's); absent for a stage that runs alone. */
  members?: readonly string[];
  create(deps: StageDependencies): ConsumerRunner;
}

/** A stage that consumes batch at a time through BatchStageHandler (every stage but export). */
function batchStage(name: string, build: (deps: StageDependencies) => BatchStage, role?: 'outbound'): StageFactory {
  return {
    name,
    create(deps) {
      const stage = build(deps);
      const logger = deps.logger.child({ stage: stage.name });
      return new ConsumerRunner({
        log: deps.log,
        groupId: stage.name,
        topics: [stage.topic],
        metrics: deps.metrics,
        logger,
        eachBatch: new BatchStageHandler(stage, handlerOptions(deps, logger, role)).handle,
      });
    },
  };
}

/**
 * `role`: the intake chain, or an outbound stage (after the lead is decided: webhooks, CRM calls,
 * activity), which yields to the intake while the thread is saturated (IntakePriority).
 */
function handlerOptions(
  deps: StageDependencies,
  logger: Logger,
  role?: 'intake' | 'outbound',
): BatchStageHandlerOptions {
  return {
    writer: deps.writer,
    logger,
    metrics: deps.metrics,
    isTransient: deps.isTransient,
    ...(deps.isStopping ? { isStopping: deps.isStopping } : {}),
    ...(deps.priority && role ? { priority: { gate: deps.priority, role } } : {}),
  };
}

/**
 * The intake stages, in pipeline order: each decides a lead in memory and hands it to the next on
 * a topic keyed by the lead. By default they run as one chain (docs/pipeline.md); PIPELINE_SPLIT
 * starts a new chain at the stages it names.
 */
const INTAKE_STAGES: ReadonlyArray<[string, (deps: StageDependencies) => LeadStage]> = [
  [
    'validate',
    (deps) =>
      validateStage({
        leads: new LeadRepository(deps.store),
        organizations: createDal(deps.store).organizations,
        customFields: new CustomFieldRepository(deps.store),
        validationRules: new ValidationRuleRepository(deps.store),
        suppression: new SuppressionRepository(deps.store),
        config: deps.config ?? uncachedConfig,
        mx: deps.mx,
        logger: deps.logger.child({ stage: 'validate' }),
        ...(deps.now ? { now: deps.now } : {}),
      }),
  ],
  [
    'dedup',
    (deps) =>
      dedupStage({
        leads: new LeadRepository(deps.store),
        dedup: new DedupRepository(deps.store),
        vendors: createDal(deps.store).vendors,
        config: deps.config ?? uncachedConfig,
        ...(deps.now ? { now: deps.now } : {}),
      }),
  ],
  [
    'enrich',
    (deps) =>
      enrichStage({
        leads: new LeadRepository(deps.store),
        enrichment: new EnrichmentConfigReader(deps.store),
        config: deps.config ?? uncachedConfig,
        logger: deps.logger.child({ stage: 'enrich' }),
        caps: {
          caps: new CapRepository(deps.store),
          counters: new CapCounterRepository(deps.store),
          now: deps.now ?? capsClock(process.env),
        },
        ...(deps.now ? { now: deps.now } : {}),
      }),
  ],
  [
    'route',
    (deps) =>
      routeStage({
        leads: new LeadRepository(deps.store),
        routing: new RoutingConfigReader(deps.store),
        counters: new RoutingCounterRepository(deps.store),
        config: deps.config ?? uncachedConfig,
        ...(deps.now ? { now: deps.now } : {}),
      }),
  ],
];

/** The names of the intake stages, in pipeline order (the ones a chain can hold). */
export const INTAKE_STAGE_NAMES: readonly string[] = INTAKE_STAGES.map(([name]) => name);

/** A chain of consecutive intake stages as one runnable unit, named by its head stage. */
function chainFactory(members: ReadonlyArray<[string, (deps: StageDependencies) => LeadStage]>): StageFactory {
  const names = members.map(([name]) => name);
  return {
    name: names[0]!,
    members: names,
    create(deps) {
      const stages = members.map(([, build]) => build(deps));
      const logger = deps.logger.child({ stage: chainName(stages) });
      return new StageChainRunner({
        log: deps.log,
        stages,
        handler: handlerOptions(deps, logger, 'intake'),
        metrics: deps.metrics,
        logger,
      });
    },
  };
}

export class PipelineSplitError extends Error {
  readonly code = 'PIPELINE_SPLIT_INVALID' as const;
  constructor(readonly stage: string) {
    super(
      `PIPELINE_SPLIT names "${stage}", which is not an intake stage after the first; it may name ${INTAKE_STAGE_NAMES.slice(1).join(', ')}, or "all"`,
    );
    this.name = 'PipelineSplitError';
  }
}

/**
 * The intake chains for a PIPELINE_SPLIT setting: `[]` (the default) is one chain of every intake
 * stage; each name starts a new chain there; `['all']` runs every stage as its own group.
 */
export function intakeChains(split: readonly string[]): StageFactory[] {
  const at = new Set(split.includes('all') ? INTAKE_STAGE_NAMES.slice(1) : split);
  for (const name of at) if (!INTAKE_STAGE_NAMES.slice(1).includes(name)) throw new PipelineSplitError(name);
  const chains: Array<Array<[string, (deps: StageDependencies) => LeadStage]>> = [];
  for (const stage of INTAKE_STAGES) {
    if (chains.length === 0 || at.has(stage[0])) chains.push([]);
    chains[chains.length - 1]!.push(stage);
  }
  return chains.map(chainFactory);
}

/** The stages this build can run, by name, in pipeline order (each intake stage alone). */
export const STAGES: ReadonlyMap<string, StageFactory> = new Map(
  [
    ...INTAKE_STAGES.map((stage) => chainFactory([stage])),
    batchStage('recalculate', (deps) =>
      recalculateStage({
        jobs: new CalculationJobRepository(deps.store),
        enrichment: new EnrichmentConfigReader(deps.store),
        ...(deps.now ? { now: deps.now } : {}),
      }),
    ),
    batchStage('reprocess', (deps) =>
      reprocessStage({
        jobs: new ReprocessJobRepository(deps.store),
        enrichment: new EnrichmentConfigReader(deps.store),
        routing: new RoutingConfigReader(deps.store),
        counters: new RoutingCounterRepository(deps.store),
        writer: deps.writer,
        logger: deps.logger.child({ stage: 'reprocess' }),
        ...(deps.reprocess ?? {}),
        ...(deps.now ? { now: deps.now } : {}),
      }),
    ),
    batchStage(
      'rule-webhook',
      (deps) => ruleWebhookStage({ ...(deps.outbound ?? {}), ...(deps.now ? { now: deps.now } : {}) }),
      'outbound',
    ),
    // An erasure also scrubs the entries recorded before its event got here (docs/consent.md).
    batchStage(
      'activity',
      (deps) => {
        const erasure = new ErasureRepository(deps.store);
        return activityStage({
          scrubErased: (tenant, leadId) => erasure.scrubActivity(tenant, leadId).then(() => undefined),
        });
      },
      'outbound',
    ),
    {
      // Consumes leads.routed and crm.sync.requests, and each retry delay topic in a group of its own.
      name: 'crm-sync',
      create(deps: StageDependencies): ConsumerRunner {
        if (!deps.crm) throw new Error('the crm-sync stage needs the CRM settings (StageDependencies.crm)');
        return new CrmSyncRunner({
          log: deps.log,
          store: deps.store,
          writer: deps.writer,
          metrics: deps.metrics,
          logger: deps.logger.child({ stage: 'crm-sync' }),
          isTransient: deps.isTransient,
          ...(deps.isStopping ? { isStopping: deps.isStopping } : {}),
          credentialsKey: deps.crm.credentialsKey,
          schedule: deps.crm.retrySchedule,
          timeoutMs: deps.crm.timeoutMs,
          allowInsecureTargets: deps.outbound?.allowInsecureTargets ?? false,
          ...(deps.priority ? { priority: deps.priority } : {}),
          ...(deps.now ? { now: deps.now } : {}),
        });
      },
    },
    batchStage(
      'notify',
      (deps) =>
        notifyStage({
          webhooks: new WebhookRepository(deps.store),
          config: deps.config ?? uncachedConfig,
          ...(deps.now ? { now: deps.now } : {}),
        }),
      'outbound',
    ),
    {
      // Group `deliver` on webhooks.deliveries, and a group per retry delay topic of the configured schedule.
      name: 'deliver',
      create(deps: StageDependencies): ConsumerRunner {
        if (!deps.webhookSecretsKey)
          throw new Error('the deliver stage needs the key of webhook secrets (StageDependencies.webhookSecretsKey)');
        const stage = deliverStage({
          webhooks: new WebhookRepository(deps.store),
          deliveries: new WebhookDeliveryRepository(deps.store),
          cipher: new CredentialsCipher(deps.webhookSecretsKey),
          timeoutMs: deps.webhooks?.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
          retryScheduleMs: deps.webhooks?.retryScheduleMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
          autoDisableAfter: deps.webhooks?.autoDisableAfter ?? 20,
          allowInsecureTargets: deps.outbound?.allowInsecureTargets ?? false,
          ...(deps.now ? { now: deps.now } : {}),
        });
        const logger = deps.logger.child({ stage: stage.name });
        return new RetryingStageRunner({
          log: deps.log,
          store: deps.store,
          stage,
          inputTopics: [WEBHOOK_DELIVERIES_TOPIC],
          retryTopics: stage.retryScheduleMs.map((delayMs) => ({
            topic: webhookRetryTopic(delayMs),
            name: formatRetryDelay(delayMs),
            delayMs,
          })),
          handler: handlerOptions(deps, logger, 'outbound'),
          metrics: deps.metrics,
          logger,
        });
      },
    },
    {
      name: 'export',
      create(deps: StageDependencies): ConsumerRunner {
        if (!deps.exportFiles)
          throw new Error('the export stage needs an export file store (StageDependencies.exportFiles)');
        const logger = deps.logger.child({ stage: 'export' });
        const worker = new ExportWorker({
          exports: new ExportRepository(deps.store),
          files: deps.exportFiles,
          log: deps.log,
          logger,
          ...(deps.now ? { now: deps.now } : {}),
        });
        return new ExportStageRunner(
          { log: deps.log, groupId: 'export', topics: [EXPORT_REQUESTS_TOPIC], metrics: deps.metrics, logger },
          worker,
          logger,
        );
      },
    },
  ].map((factory) => [factory.name, factory]),
);

export class UnknownStageError extends Error {
  constructor(readonly stage: string) {
    super(`unknown stage "${stage}"; this build has ${[...STAGES.keys()].join(', ')}`);
    this.name = 'UnknownStageError';
  }
}

/**
 * The runnable units of a process, in pipeline order: the intake chains of the split setting, then
 * every other stage. `names` (a worker's --stages) picks the units holding those stages; without
 * it, every unit (`leadstream start`).
 */
export function resolveStages(names: readonly string[] | undefined, split: readonly string[] = []): StageFactory[] {
  const units = [
    ...intakeChains(split),
    ...[...STAGES.values()].filter((factory) => !INTAKE_STAGE_NAMES.includes(factory.name)),
  ];
  if (names === undefined) return units;
  for (const name of names) if (!STAGES.has(name)) throw new UnknownStageError(name);
  return units.filter((unit) => (unit.members ?? [unit.name]).some((member) => names.includes(member)));
}
