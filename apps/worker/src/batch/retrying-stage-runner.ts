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
}

/** A retry group's stage: the same decisions, committed under the group's own name. */
function underGroup(stage: BatchStage, name: string, topic: string): BatchStage {
  return { name, topic, process: (records) => stage.process(records) };
}

export class RetryingStageRunner extends ConsumerRunner {
  private readonly retries: ConsumerRunner[] = [];
  /** A delay that repeats in the schedule shares its topic and group. */
  private readonly delayTopics: RetryDelayTopic[];

  constructor(private readonly retrying: RetryingStageRunnerOptions) {
    const { log, stage, inputTopics, retryTopics, handler, metrics, logger } = retrying;
    super({ log, groupId: stage.name, topics: inputTopics, metrics, logger, eachBatch: new BatchStageHandler(stage, handler).handle });
    this.delayTopics = [...new Map(retryTopics.map((retry) => [retry.topic, retry])).values()];
  }

  private groupOf({ topic, name }: RetryDelayTopic): ConsumerRunner {
    const { log, stage, handler, metrics, logger } = this.retrying;
    const group = underGroup(stage, `${stage.name}.retry.${name}`, topic);
    return new ConsumerRunner({ log, groupId: group.name, topics: [topic], metrics, logger, eachBatch: new BatchStageHandler(group, handler).handle });
  }

  override get done(): Promise<void> {
    return Promise.all([super.done, ...this.retries.map((runner) => runner.done)]).then(() => undefined);
  }

  override async start(): Promise<void> {
    if (this.retries.length > 0) throw new Error(`the ${this.retrying.stage.name} runner was started already`);
    const { log, store, stage, inputTopics, ensureInputTopics = [], logger } = this.retrying;
    const registry = new RetryDelayTopicRepository(store);
    const earlier = (await registry.list(stage.name)).filter((used) => !this.delayTopics.some((current) => current.topic === used.topic));
    await registry.remember(stage.name, this.delayTopics, new Date().toISOString());
    if (earlier.length > 0) logger.info({ stage: stage.name, topics: earlier.map((used) => used.topic) }, 'also consuming the retry delay topics of an earlier schedule');
    const consumed = [...this.delayTopics, ...earlier];
    const partitions = await log.partitionCount(inputTopics[0]!);
    // The delay topics, with their delays (a Kafka consumer learns a topic's delay from this call
    // in its own process).
    const specs: TopicSpec[] = [...consumed.map(({ topic, delayMs }) => ({ topic, partitions, delayMs })), ...ensureInputTopics.map((topic) => ({ topic, partitions }))];
    await log.ensureTopics(specs);
    this.retries.push(...consumed.map((delayTopic) => this.groupOf(delayTopic)));
    try {
      await super.start();
      for (const runner of this.retries) await runner.start();
    } catch (error) {
      // The caller registers stop() only after start() succeeds: nothing started may stay running.
      await this.stop().catch(() => undefined);
      throw error;
    }
  }

  override async stop(): Promise<void> {
    await Promise.all([super.stop(), ...this.retries.map((runner) => runner.stop())]);
  }

  override async waitUntilIdle(pollMs?: number): Promise<void> {
    await Promise.all([super.waitUntilIdle(pollMs), ...this.retries.map((runner) => runner.waitUntilIdle(pollMs))]);
  }
}
