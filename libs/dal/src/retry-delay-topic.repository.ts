/**
 * The retry delay topics each retrying stage (deliver, crm-sync) has consumed. Retry topics are
 * named by their delay, so after WEBHOOK_RETRY_SCHEDULE or CRM_RETRY_SCHEDULE changes, retries
 * may still wait on a topic the new schedule does not name; the stage goes on consuming every
 * topic it used, so those retries are still made, until such a topic is consumed to its end and
 * retired (`forget`). One document per topic (an upsert each: processes starting at once with
 * different schedules lose nobody's topic).
 */
import type { DocumentStore, Collection } from '@leadstream/ports';

export const RETRY_DELAY_TOPICS_COLLECTION = 'retry_delay_topics';

export interface RetryDelayTopicRecord {
  topic: string;
  /** The delay's name as in the topic's (`1m`). */
  name: string;
  delayMs: number;
}

interface RetryDelayTopicDocument {
  _id: string;
  stage: string;
  name: string;
  delay_ms: number;
  first_used_at: string;
}

export class RetryDelayTopicRepository {
  static readonly COLLECTION = RETRY_DELAY_TOPICS_COLLECTION;
  private readonly topics: Collection<RetryDelayTopicDocument>;

  constructor(store: DocumentStore) {
    this.topics = store.collection<RetryDelayTopicDocument>(RETRY_DELAY_TOPICS_COLLECTION);
  }

  /** Every delay topic the stage has used, oldest first. */
  async list(stage: string): Promise<RetryDelayTopicRecord[]> {
    const docs = await this.topics.find({ stage }, { sort: { first_used_at: 1, _id: 1 } });
    return docs.map((doc) => ({ topic: doc._id, name: doc.name, delayMs: doc.delay_ms }));
  }

  /** Records that the stage uses these topics (known ones keep their first use). */
  async remember(stage: string, topics: RetryDelayTopicRecord[], at: string): Promise<void> {
    if (topics.length === 0) return;
    await this.topics.bulkWrite(
      topics.map((topic) => ({
        updateOne: {
          filter: { _id: topic.topic },
          update: { $setOnInsert: { stage, name: topic.name, delay_ms: topic.delayMs, first_used_at: at } },
          upsert: true,
        },
      })),
    );
  }

  /** Forgets a topic the stage has retired (consumed to its end, in no current schedule): it is not consumed again. */
  async forget(stage: string, topic: string): Promise<void> {
    await this.topics.deleteOne({ _id: topic, stage });
  }
}
