import { createDal, CustomFieldRepository, DedupRepository, ExportRepository, LeadActivityRepository, LeadRepository } from '@leadstream/dal';
import type { DocumentStore, EventLog, ExportFileStore, LogRecord, MxResolver } from '@leadstream/ports';
import { ConsumerRunner, type Logger, type Metrics } from '@leadstream/runtime';
import { EXPORT_REQUESTS_TOPIC, ExportStageRunner, ExportWorker } from './exports';
import { activityHandler } from './pipeline/activity.stage';
import { dedupHandler } from './pipeline/dedup.stage';
import { enrichHandler } from './pipeline/enrich.stage';
import { LeadActorStore } from './pipeline/lead-actor-store';
import { TOPICS } from './pipeline/outputs';
import { validateHandler } from './pipeline/validate.stage';

export interface StageDependencies {
  log: EventLog;
  store: DocumentStore;
  metrics: Metrics;
  logger: Logger;
  /** Undefined when MX checks are off for the process. */
  mx: MxResolver | undefined;
  /** Where the export stage writes CSV files; required by that stage only. */
  exportFiles?: ExportFileStore;
  now?: () => Date;
}

/** A pipeline stage: a consumer group on its input topic (DESIGN.md sections 2 and 4). */
export interface StageFactory {
  name: string;
  create(deps: StageDependencies): ConsumerRunner;
}

function stage(name: string, topic: string, handler: (deps: StageDependencies) => (record: LogRecord) => Promise<void>): StageFactory {
  return {
    name,
    create(deps) {
      const handle = handler(deps);
      return new ConsumerRunner({
        log: deps.log,
        groupId: name,
        topics: [topic],
        metrics: deps.metrics,
        logger: deps.logger.child({ stage: name }),
        eachRecord: handle,
      });
    },
  };
}

function actorsOf(deps: StageDependencies): LeadActorStore {
  return new LeadActorStore(new LeadRepository(deps.store), deps.log, deps.now);
}

/** The stages this build can run, by name, in pipeline order. */
export const STAGES: ReadonlyMap<string, StageFactory> = new Map(
  [
    stage('validate', TOPICS.submitted, (deps) => {
      const dal = createDal(deps.store);
      return validateHandler({
        actors: actorsOf(deps),
        organizations: dal.organizations,
        customFields: new CustomFieldRepository(deps.store),
        mx: deps.mx,
        ...(deps.now ? { now: deps.now } : {}),
      });
    }),
    stage('dedup', TOPICS.validated, (deps) =>
      dedupHandler({
        actors: actorsOf(deps),
        leads: new LeadRepository(deps.store),
        dedup: new DedupRepository(deps.store),
        vendors: createDal(deps.store).vendors,
        ...(deps.now ? { now: deps.now } : {}),
      }),
    ),
    stage('enrich', TOPICS.unique, (deps) => enrichHandler(actorsOf(deps), deps.now)),
    stage('activity', TOPICS.events, (deps) => activityHandler(new LeadActivityRepository(deps.store))),
    {
      name: 'export',
      create(deps: StageDependencies): ConsumerRunner {
        if (!deps.exportFiles) throw new Error('the export stage needs an export file store (StageDependencies.exportFiles)');
        const logger = deps.logger.child({ stage: 'export' });
        const worker = new ExportWorker({ exports: new ExportRepository(deps.store), files: deps.exportFiles, log: deps.log, logger, ...(deps.now ? { now: deps.now } : {}) });
        return new ExportStageRunner({ log: deps.log, groupId: 'export', topics: [EXPORT_REQUESTS_TOPIC], metrics: deps.metrics, logger }, worker, logger);
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

export function resolveStages(names: string[]): StageFactory[] {
  return names.map((name) => {
    const factory = STAGES.get(name);
    if (!factory) throw new UnknownStageError(name);
    return factory;
  });
}
