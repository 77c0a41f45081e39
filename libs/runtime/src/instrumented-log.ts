import type { EventLog, ProduceRecord, RecordMetadata } from '@leadstream/ports';
import type { Metrics } from './metrics';

/** Wraps an event log so every produce is counted per topic. */
export function instrumentEventLog(log: EventLog, metrics: Metrics): EventLog {
  return {
    engine: log.engine,
    ensureTopics: (specs) => log.ensureTopics(specs),
    partitionCount: (topic) => log.partitionCount(topic),
    consumer: (options) => log.consumer(options),
    ping: () => log.ping(),
    close: () => log.close(),
    async produce(topic: string, records: ProduceRecord[]): Promise<RecordMetadata[]> {
      const result = await log.produce(topic, records);
      metrics.messagesProduced.inc({ topic }, records.length);
      return result;
    },
  };
}
