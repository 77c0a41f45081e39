/**
 * Concurrent submissions share one produce per event-loop tick (docs/decisions.md "Configuration
 * freshness and the api's hot path"): every `produce(topic, records)` made before the next check
 * phase (setImmediate) is sent as one `log.produce(topic, allRecords)` per topic, in call order.
 * Each caller gets the metadata of its own records, or the shared error when the produce failed.
 *
 * Requests parsed in one poll phase of the event loop all reach `produce` before the check phase,
 * so under load one produce (one SQLite commit on the embedded log, one request to Kafka) serves
 * many submissions; a lone submission waits for nothing but the rest of the current tick.
 */
import type { EventLog, ProduceRecord, RecordMetadata } from '@leadstream/ports';

interface PendingProduce {
  records: ProduceRecord[];
  resolve: (metadata: RecordMetadata[]) => void;
  reject: (error: unknown) => void;
}

export type Produce = Pick<EventLog, 'produce'>;

export class CoalescingProducer implements Produce {
  private readonly pending = new Map<string, PendingProduce[]>();
  private scheduled = false;

  constructor(
    private readonly log: Produce,
    /** When the collected calls are sent; setImmediate unless a test drives it. */
    private readonly schedule: (flush: () => void) => void = (flush) => setImmediate(flush),
  ) {}

  produce(topic: string, records: ProduceRecord[]): Promise<RecordMetadata[]> {
    if (records.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const calls = this.pending.get(topic);
      if (calls) calls.push({ records, resolve, reject });
      else this.pending.set(topic, [{ records, resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        this.schedule(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const topics = [...this.pending];
    this.pending.clear();
    for (const [topic, calls] of topics) void this.send(topic, calls);
  }

  private async send(topic: string, calls: PendingProduce[]): Promise<void> {
    let metadata: RecordMetadata[];
    try {
      metadata = await this.log.produce(
        topic,
        calls.flatMap((call) => call.records),
      );
    } catch (error) {
      for (const call of calls) call.reject(error);
      return;
    }
    let offset = 0;
    for (const call of calls) {
      call.resolve(metadata.slice(offset, offset + call.records.length));
      offset += call.records.length;
    }
  }
}
