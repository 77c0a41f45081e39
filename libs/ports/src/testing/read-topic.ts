/**
 * Test support for suites that check what was produced on an event log. Exported only through
 * the `@leadstream/ports/testing/*` subpath, never from the package's main index.
 */
import { randomUUID } from 'node:crypto';
import type { EventLog, LogRecord } from '../event-log.port';

/**
 * Every record of a topic so far, read with a throwaway consumer group until the topic is drained,
 * in partition then offset order. Throws when the topic is not drained within `timeoutMs`.
 */
export async function readTopic(log: EventLog, topic: string, timeoutMs = 20_000): Promise<LogRecord[]> {
  const records: LogRecord[] = [];
  const consumer = log.consumer({ groupId: `read-${randomUUID()}`, topics: [topic], fromBeginning: true });
  await consumer.start(async (batch) => {
    records.push(...batch.records);
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const lag = await consumer.lag();
      if (lag.length > 0 && lag.every((entry) => entry.lag === 0)) break;
      if (Date.now() > deadline) throw new Error(`could not drain ${topic} in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await consumer.stop();
  }
  return records.sort((a, b) => a.partition - b.partition || Number(a.offset) - Number(b.offset));
}
