import { randomUUID } from 'node:crypto';
import type { EventLog, LogRecord } from '@leadstream/ports';

/** Reads every record of a topic with a throwaway consumer group, until the topic is drained. */
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
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await consumer.stop();
  }
  return records;
}
