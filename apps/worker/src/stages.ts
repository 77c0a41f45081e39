import type { DocumentStore, EventLog } from '@leadstream/ports';
import type { ConsumerRunner, Logger, Metrics } from '@leadstream/runtime';

export interface StageDependencies {
  log: EventLog;
  store: DocumentStore;
  metrics: Metrics;
  logger: Logger;
}

/** A pipeline stage: a consumer group on its input topic (DESIGN.md sections 2 and 4). */
export interface StageFactory {
  name: string;
  create(deps: StageDependencies): ConsumerRunner;
}

/** The stages this build can run, by name. The pipeline stages register here as they are built. */
export const STAGES: ReadonlyMap<string, StageFactory> = new Map<string, StageFactory>();

export class UnknownStageError extends Error {
  constructor(readonly stage: string) {
    const known = [...STAGES.keys()];
    super(`unknown stage "${stage}"; this build has ${known.length > 0 ? known.join(', ') : 'no pipeline stages yet'}`);
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
