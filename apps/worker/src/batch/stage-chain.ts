/**
 * A stage chain: consecutive lead stages run as one consumer group and one unit of work per batch
 * (docs/pipeline.md). The head stage consumes its topic; each later stage decides, in the same
 * batch and in memory, the commands the stage before it put for it. A lead is read once, decided
 * by every stage of the chain, and written once in its final state, with every output of the
 * chain, in one commit. Outputs to the topics inside the chain are never produced.
 *
 * Each stage keeps its name, its code and its consumer group: a chain also consumes the input
 * topic of each later stage (under that stage's group) and runs the rest of the chain from there,
 * so records a split deployment left on those topics are decided too.
 */
import type { LogRecord } from '@leadstream/ports';
import type { Logger, Metrics } from '@leadstream/runtime';
import { ConsumerRunner, TOPICS } from '@leadstream/runtime';
import type { EventLog } from '@leadstream/ports';
import { parseLeadCommand } from '@leadstream/schemas';
import {
  type BatchStage,
  BatchStageHandler,
  type BatchStageHandlerOptions,
  type StageBatchResult,
} from './batch-stage';
import { type BatchWrite, emptyBatchWrite } from './batch-write';
import { LeadBatch } from './lead-batch';
import { CONFIG_VERSION_HEADER } from './config-source';
import {
  commandConfigVersions,
  decideSteps,
  type LeadStage,
  type LeadStep,
  parseLeadSteps,
  prefetchLeads,
} from './lead-stage';

/** The chain's name as operators see it: its stages joined by '+', e.g. "validate+dedup+enrich+route". */
export function chainName(stages: readonly Pick<BatchStage, 'name'>[]): string {
  return stages.map((stage) => stage.name).join('+');
}

/**
 * The chain as one BatchStage under the head stage's name (its consumer group) and topic. Every
 * record of the batch is handled: dedup sees the leads decided earlier in the same batch, so no
 * stage needs to cut it.
 */
export interface ChainOptions {
  /**
   * Where the head stage's commands create their leads (submissions), take them as new without
   * reading them first (default false). For the outbox writer, where each read is a round trip:
   * a redelivered submission's insert is then refused as a duplicate, which is a write conflict,
   * and the batch decided again reads its leads first.
   */
  assumeNewLeads?: boolean;
}

/** Batches whose leads a try took as new, by their first record: deciding one again reads them. */
const UNREAD_TRIES_KEPT = 1_000;

export function chainLeadStages(stages: readonly LeadStage[], options: ChainOptions = {}): BatchStage {
  const head = stages[0];
  if (!head) throw new Error('a stage chain needs at least one stage');
  if (stages.length === 1) return head;
  const inner = new Set(stages.slice(1).map((stage) => stage.topic));
  const assumeNew = options.assumeNewLeads === true && head.topic === TOPICS.submitted;
  const unreadTries = new Set<string>();
  /** Whether this try reads the batch's leads: always, unless they may be taken as new and no try of this batch did. */
  const readsLeads = (first: LogRecord | undefined): boolean => {
    if (!assumeNew || !first) return true;
    const key = `${first.topic}\u0000${first.partition}\u0000${first.offset}`;
    if (unreadTries.delete(key)) return true;
    unreadTries.add(key);
    if (unreadTries.size > UNREAD_TRIES_KEPT) unreadTries.delete(unreadTries.values().next().value!);
    return false;
  };
  return {
    name: head.name,
    topic: head.topic,
    async process(records: LogRecord[]): Promise<StageBatchResult> {
      const write = emptyBatchWrite();
      const { steps: parsed, unreadable } = parseLeadSteps(records);
      write.records.push(...unreadable.values());
      let steps = parsed.filter((step): step is LeadStep => step !== undefined);
      const versions = commandConfigVersions(steps.map(({ message }) => message));
      const origins = new Map(steps.map((step) => [step.message.lead_id, step.record]));
      const batch = readsLeads(records[0])
        ? await prefetchLeads(
            head.spec.leads,
            steps.map((step) => step.message),
          )
        : new LeadBatch();
      batch.chain(inner);
      for (let index = 0; index < stages.length; index++) {
        const stage = stages[index]!;
        const decided = await decideSteps(stage.spec, steps, batch, write);
        if (decided < steps.length)
          throw new Error(
            `stage ${stage.name} stopped inside the chain ${chainName(stages)}; a chained stage must decide every command`,
          );
        const next = stages[index + 1];
        if (!next) break;
        steps = batch.takeForwarded(next.topic).map((output) => {
          const message = parseLeadCommand(JSON.parse(output.value));
          const origin = origins.get(message.lead_id) ?? records[0]!;
          // The record this command would have been, for a dead letter's source and reason.
          const record: LogRecord = {
            ...origin,
            topic: next.topic,
            key: output.key,
            value: output.value,
            headers: { ...origin.headers, ...(output.headers ?? {}) },
          };
          return { message, record };
        });
      }
      batch.toWrite(write);
      stampEvents(write, versions);
      return { write, handled: records.length };
    },
  };
}

/**
 * Stamps the lead events of the batch with the newest configuration version of their
 * organization's commands, so notify reads the webhooks no older than the lead was decided with.
 */
function stampEvents(write: BatchWrite, versions: Map<string, number | undefined>): void {
  for (const entry of write.leads) {
    const version = versions.get(entry.lead.organization_id);
    if (version === undefined) continue;
    entry.outputs = entry.outputs.map((output) =>
      output.topic === TOPICS.events
        ? { ...output, headers: { ...output.headers, [CONFIG_VERSION_HEADER]: String(version) } }
        : output,
    );
  }
}

export interface StageChainRunnerOptions {
  log: EventLog;
  stages: readonly LeadStage[];
  handler: BatchStageHandlerOptions;
  metrics: Metrics;
  logger: Logger;
}

/**
 * Runs a chain: the head's group on the head's topic, and for each later stage its own group on
 * its own topic running the rest of the chain (usually idle: nothing produces to those topics
 * while the chain runs).
 */
export class StageChainRunner extends ConsumerRunner {
  private readonly tails: ConsumerRunner[];

  constructor(options: StageChainRunnerOptions) {
    const { log, stages, handler, metrics, logger } = options;
    super({
      log,
      groupId: stages[0]!.name,
      topics: [stages[0]!.topic],
      metrics,
      logger,
      eachBatch: new BatchStageHandler(chainLeadStages(stages, { assumeNewLeads: !handler.writer.atomic }), handler)
        .handle,
    });
    this.tails = stages.slice(1).map((stage, index) => {
      const rest = chainLeadStages(stages.slice(index + 1));
      return new ConsumerRunner({
        log,
        groupId: stage.name,
        topics: [stage.topic],
        metrics,
        logger,
        eachBatch: new BatchStageHandler(rest, handler).handle,
      });
    });
  }

  override get done(): Promise<void> {
    return Promise.all([super.done, ...this.tails.map((runner) => runner.done)]).then(() => undefined);
  }

  override async start(): Promise<void> {
    try {
      await super.start();
      for (const runner of this.tails) await runner.start();
    } catch (error) {
      // The caller registers stop() only after start() succeeds: nothing started may stay running.
      await this.stop().catch(() => undefined);
      throw error;
    }
  }

  override async stop(): Promise<void> {
    await Promise.all([super.stop(), ...this.tails.map((runner) => runner.stop().catch(() => undefined))]);
  }

  override async waitUntilIdle(pollMs?: number): Promise<void> {
    await Promise.all([super.waitUntilIdle(pollMs), ...this.tails.map((runner) => runner.waitUntilIdle(pollMs))]);
  }
}
