/**
 * The consumers of a stage that schedules retries on delay topics (deliver, crm-sync): its main
 * group on its input topics, and one group per delay topic (`<stage>.retry.<delay>`).
 *
 * Each delay topic has a group of its own because a consumer holds a partition's batch until its
 * head record is due (docs/pipeline.md), and a Kafka consumer fetches again only when every
 * batch of its last fetch is done: in one group with the input topics, a retry waiting 24 h would
 * hold every new record behind it for 24 h. Within one delay topic nothing waits behind a record
 * that is not due: the delay is the same for all, so later records are due later.
 *
 * Retry topics are named by their delay, so a changed schedule may leave retries waiting on a topic
 * the new one does not name: the runner remembers in the store every delay topic the stage used
 * (RetryDelayTopicRepository) and consumes those of earlier schedules too, so no retry is stranded.
 * Such a group is retired once its topic has nothing left to consume: every partition's committed
 * offset at its end, seen so at every check for `retireAfterEmptyMs` (an hour by default, so a
 * process still on the earlier schedule during a rolling deploy, which may still put a retry there,
 * has stopped by then). Retiring stops the group and forgets the topic, so later starts do not
 * consume it again. Only a member that owns every partition of the topic can tell it is consumed
 * to its end; where several processes share the group, a member whose own partitions stay at their
 * end for twice that long leaves the group without forgetting the topic, so its partitions go to
 * the members still in it, and the one that ends up owning them all retires it. (Members leaving
 * together leave the topic remembered: the next start consumes it and tries again.)
 *
 * All groups run the same stage (each commits under its own group name); starting and stopping
 * this runner starts and stops them all.
 */
import { RetryDelayTopicRepository } from '@leadstream/dal';
import type { DocumentStore, EventLog, TopicSpec } from '@leadstream/ports';
import { ConsumerRunner, type Logger, type Metrics } from '@leadstream/runtime';
import { type BatchStage, BatchStageHandler, type BatchStageHandlerOptions } from './batch-stage';

export interface RetryDelayTopic {
  topic: string;
  /** The delay's name, as in the topic's (`1m`, `24h`): the group is `<stage>.retry.<name>`. */
  name: string;
  delayMs: number;
}

export interface RetryingStageRunnerOptions {
  log: EventLog;
  /** Where the delay topics the stage used are remembered. */
  store: DocumentStore;
  stage: BatchStage;
  /** The main group's topics; the first one's partition count is the delay topics'. */
  inputTopics: string[];
  /** One per distinct delay of the configured schedule. */
  retryTopics: RetryDelayTopic[];
  /** Created at start with the delay topics (beside the ones every process creates at boot). */
  ensureInputTopics?: string[];
  handler: BatchStageHandlerOptions;
  metrics: Metrics;
  logger: Logger;
  /** How often the groups of earlier schedules are checked for retirement (default 60 s). */
  retireCheckMs?: number;
  /** How long such a group's topic must stay consumed to its end before it is retired (default 1 h). */
  retireAfterEmptyMs?: number;
  /** Milliseconds since the epoch (default Date.now). */
  clock?: () => number;
}

export const DEFAULT_RETIRE_CHECK_MS = 60_000;
export const DEFAULT_RETIRE_AFTER_EMPTY_MS = 3_600_000;

/** The outcome of one retirement check of the groups of earlier schedules. */
export interface RetirementCheck {
  /** Retired now: stopped and forgotten (this member owned every partition of the topic). */
  retired: string[];
  /** Left now by this member (other members own partitions of the topic); still remembered. */
  left: string[];
  /** Topics whose partitions this member owns (listed) are consumed to their end, not for long enough yet. */
  waiting: Array<{ topic: string; partitions: number[] }>;
}

interface RetryGroup {
  delayTopic: RetryDelayTopic;
  runner: ConsumerRunner;
  /** Of an earlier schedule only (the current schedule's groups are never retired). */
  earlier: boolean;
  /** Since when its topic has been seen consumed to its end, at every check. */
  emptySince?: number;
}

/** A retry group's stage: the same decisions, committed under the group's own name. */
function underGroup(stage: BatchStage, name: string, topic: string): BatchStage {
  return { name, topic, process: (records) => stage.process(records) };
}

export class RetryingStageRunner extends ConsumerRunner {
  private readonly retries: RetryGroup[] = [];
  private started = false;
  private stopping = false;
  private retireTimer: NodeJS.Timeout | undefined;
  private retiring: Promise<RetirementCheck> | undefined;
  /** A delay that repeats in the schedule shares its topic and group. */
  private readonly delayTopics: RetryDelayTopic[];
  private readonly clock: () => number;

  constructor(private readonly retrying: RetryingStageRunnerOptions) {
    const { log, stage, inputTopics, retryTopics, handler, metrics, logger } = retrying;
    super({
      log,
      groupId: stage.name,
      topics: inputTopics,
      metrics,
      logger,
      eachBatch: new BatchStageHandler(stage, handler).handle,
    });
    this.delayTopics = [...new Map(retryTopics.map((retry) => [retry.topic, retry])).values()];
    this.clock = retrying.clock ?? Date.now;
  }

  /** The retry groups running now (`<stage>.retry.<delay>`). */
  get retryGroups(): string[] {
    return this.retries.map((group) => this.groupIdOf(group.delayTopic));
  }

  private groupIdOf({ name }: RetryDelayTopic): string {
    return `${this.retrying.stage.name}.retry.${name}`;
  }

  private groupOf(delayTopic: RetryDelayTopic): ConsumerRunner {
    const { log, stage, handler, metrics, logger } = this.retrying;
    const group = underGroup(stage, this.groupIdOf(delayTopic), delayTopic.topic);
    return new ConsumerRunner({
      log,
      groupId: group.name,
      topics: [delayTopic.topic],
      metrics,
      logger,
      eachBatch: new BatchStageHandler(group, handler).handle,
    });
  }

  override get done(): Promise<void> {
    return Promise.all([super.done, ...this.retries.map((group) => group.runner.done)]).then(() => undefined);
  }

  override async start(): Promise<void> {
    if (this.started) throw new Error(`the ${this.retrying.stage.name} runner was started already`);
    this.started = true;
    const { log, store, stage, inputTopics, ensureInputTopics = [], logger } = this.retrying;
    const registry = new RetryDelayTopicRepository(store);
    const earlier = (await registry.list(stage.name)).filter(
      (used) => !this.delayTopics.some((current) => current.topic === used.topic),
    );
    await registry.remember(stage.name, this.delayTopics, new Date().toISOString());
    if (earlier.length > 0)
      logger.info(
        { stage: stage.name, topics: earlier.map((used) => used.topic) },
        'also consuming the retry delay topics of an earlier schedule',
      );
    const consumed = [...this.delayTopics, ...earlier];
    const partitions = await log.partitionCount(inputTopics[0]!);
    // The delay topics, with their delays (a Kafka consumer learns a topic's delay from this call
    // in its own process).
    const specs: TopicSpec[] = [
      ...consumed.map(({ topic, delayMs }) => ({ topic, partitions, delayMs })),
      ...ensureInputTopics.map((topic) => ({ topic, partitions })),
    ];
    await log.ensureTopics(specs);
    this.retries.push(
      ...consumed.map((delayTopic) => ({
        delayTopic,
        runner: this.groupOf(delayTopic),
        earlier: earlier.includes(delayTopic),
      })),
    );
    try {
      await super.start();
      for (const group of this.retries) await group.runner.start();
      if (earlier.length > 0) {
        this.retireTimer = setInterval(() => {
          this.retireEmptied().catch((error: unknown) =>
            logger.warn({ stage: stage.name, err: error }, 'retry delay topic retirement check failed'),
          );
        }, this.retrying.retireCheckMs ?? DEFAULT_RETIRE_CHECK_MS);
        this.retireTimer.unref();
      }
    } catch (error) {
      // The caller registers stop() only after start() succeeds: nothing started may stay running.
      await this.stop().catch(() => undefined);
      throw error;
    }
  }

  override async stop(): Promise<void> {
    this.stopping = true;
    if (this.retireTimer) clearInterval(this.retireTimer);
    await this.retiring?.catch(() => undefined);
    await Promise.all([super.stop(), ...this.retries.map((group) => group.runner.stop())]);
  }

  override async waitUntilIdle(pollMs?: number): Promise<void> {
    await Promise.all([
      super.waitUntilIdle(pollMs),
      ...this.retries.map((group) => group.runner.waitUntilIdle(pollMs)),
    ]);
  }

  /**
   * Retires the groups of earlier schedules whose topic has stayed consumed to its end for
   * `retireAfterEmptyMs`: stops them and forgets their topics. Runs every `retireCheckMs`; one
   * check at a time.
   */
  retireEmptied(): Promise<RetirementCheck> {
    this.retiring ??= this.checkRetirement().finally(() => (this.retiring = undefined));
    return this.retiring;
  }

  private async checkRetirement(): Promise<RetirementCheck> {
    const { log, store, stage, metrics, logger } = this.retrying;
    const retireAfterEmptyMs = this.retrying.retireAfterEmptyMs ?? DEFAULT_RETIRE_AFTER_EMPTY_MS;
    const outcome: RetirementCheck = { retired: [], left: [], waiting: [] };
    for (const group of this.retries.filter((candidate) => candidate.earlier)) {
      if (this.stopping) break;
      const { topic } = group.delayTopic;
      const position = await this.positionOf(group);
      // Nothing owned now (a rebalance): no news, neither way.
      if (position.state === 'unknown') continue;
      if (position.state === 'behind') {
        delete group.emptySince;
        continue;
      }
      const now = this.clock();
      group.emptySince ??= now;
      const emptyFor = now - group.emptySince;
      const due = position.state === 'all-at-end' ? emptyFor >= retireAfterEmptyMs : emptyFor >= 2 * retireAfterEmptyMs;
      if (!due) {
        outcome.waiting.push({ topic, partitions: position.partitions });
        continue;
      }
      if (this.stopping) break;
      const groupId = this.groupIdOf(group.delayTopic);
      await group.runner.stop();
      this.retries.splice(this.retries.indexOf(group), 1);
      for (const partition of position.partitions)
        metrics.consumerLag.remove({ topic, partition: String(partition), group: groupId });
      if (position.state === 'all-at-end') {
        await new RetryDelayTopicRepository(store).forget(stage.name, topic);
        logger.info(
          { stage: stage.name, topic, group: groupId },
          'retired the retry delay topic of an earlier schedule: consumed to its end',
        );
        outcome.retired.push(topic);
      } else {
        logger.info(
          {
            stage: stage.name,
            topic,
            group: groupId,
            partitions: position.partitions,
            partitionCount: await log.partitionCount(topic),
          },
          "left the group of an earlier schedule's retry delay topic: its partitions here are consumed to their end",
        );
        outcome.left.push(topic);
      }
    }
    return outcome;
  }

  /**
   * Where the group stands on its topic: every partition owned by this member and at its end, the
   * ones it owns at their end (others own the rest), some behind, or nothing owned to tell by.
   */
  private async positionOf({
    delayTopic,
    runner,
  }: RetryGroup): Promise<{ state: 'all-at-end' | 'own-at-end' | 'behind' | 'unknown'; partitions: number[] }> {
    try {
      const partitionCount = await this.retrying.log.partitionCount(delayTopic.topic);
      const lag = (await runner.lag()).filter((entry) => entry.topic === delayTopic.topic);
      const partitions = [...new Set(lag.map((entry) => entry.partition))].sort((a, b) => a - b);
      if (partitions.length === 0) return { state: 'unknown', partitions };
      if (lag.some((entry) => entry.lag !== 0)) return { state: 'behind', partitions };
      return { state: partitions.length === partitionCount ? 'all-at-end' : 'own-at-end', partitions };
    } catch (error) {
      this.retrying.logger.debug(
        { topic: delayTopic.topic, err: error },
        'lag unavailable: retirement checked again later',
      );
      return { state: 'unknown', partitions: [] };
    }
  }
}
