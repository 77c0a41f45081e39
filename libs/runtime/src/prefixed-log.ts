import type { Batch, Consumer, EventLog, LogRecord } from '@leadstream/ports';

/**
 * Puts every topic and consumer group of this process under a prefix, so several deployments
 * (or test runs) can share one Kafka cluster without reading each other's records. Callers keep
 * using the plain names of docs/pipeline.md.
 */
export function prefixEventLog(log: EventLog, prefix: string): EventLog {
  if (prefix === '') return log;
  const strip = (topic: string): string => (topic.startsWith(prefix) ? topic.slice(prefix.length) : topic);
  const unprefixRecord = (record: LogRecord): LogRecord => ({ ...record, topic: strip(record.topic) });
  return {
    engine: log.engine,
    ensureTopics: (specs) => log.ensureTopics(specs.map((spec) => ({ ...spec, topic: prefix + spec.topic }))),
    partitionCount: (topic) => log.partitionCount(prefix + topic),
    produce: (topic, records) =>
      log
        .produce(prefix + topic, records)
        .then((metadata) => metadata.map((entry) => ({ ...entry, topic: strip(entry.topic) }))),
    ping: () => log.ping(),
    close: () => log.close(),
    consumer(options): Consumer {
      const inner = log.consumer({
        ...options,
        groupId: prefix + options.groupId,
        topics: options.topics.map((topic) => prefix + topic),
      });
      return {
        start: (handler) =>
          inner.start((batch: Batch) =>
            handler({ ...batch, topic: strip(batch.topic), records: batch.records.map(unprefixRecord) }),
          ),
        stop: () => inner.stop(),
        state: () => inner.state(),
        get done() {
          return inner.done;
        },
        assignment: () => inner.assignment().map((entry) => ({ ...entry, topic: strip(entry.topic) })),
        lag: () => inner.lag().then((entries) => entries.map((entry) => ({ ...entry, topic: strip(entry.topic) }))),
      };
    },
  };
}
