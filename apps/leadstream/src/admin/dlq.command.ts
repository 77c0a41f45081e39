/**
 * `leadstream dlq list --topic T` and `leadstream dlq replay --topic T` (issue 8 point 6): what a
 * stage dead-lettered from T (`T.dlq`, with `x-dlq-reason` and `x-dlq-source`), and putting it
 * back on T once the cause is fixed.
 *
 * Replay re-produces every dead letter not replayed before, in order, with its key, value and
 * headers (less the x-dlq-* ones, plus `x-dlq-replayed-from: <partition>/<offset>`). What was
 * replayed is the committed offset of the consumer group `dlq-replay` on `T.dlq`, so replaying
 * twice queues nothing twice. A crash between a produce and its offset commit may queue a record
 * again; the stages apply a message once (its id), so that changes nothing.
 *
 * On the embedded engines the log belongs to the running server (DATA_DIR's lock): stop it first.
 */
import { randomUUID } from 'node:crypto';
import { Command } from 'commander';
import type { EventLog, LogRecord } from '@leadstream/ports';
import { deadLetterTopic, Metrics } from '@leadstream/runtime';
import { destination, pino } from 'pino';
import { parseConfig } from '../config';
import { openEngines } from '../engines';
import { adminAction, AdminInputError, print } from './admin-context';

interface DlqOptions {
  topic: string;
  json?: boolean;
  limit?: string;
}

const REPLAY_GROUP = 'dlq-replay';

async function withLog<T>(run: (log: EventLog) => Promise<T>): Promise<T> {
  const config = parseConfig(process.env);
  // The command's own messages say what went wrong; the Kafka client's chatter would bury them.
  const logger = pino({ level: 'fatal', base: { role: 'admin' } }, destination(2));
  const engines = await openEngines(config, logger, new Metrics({ defaultMetrics: false }), { log: true });
  try {
    return await run(engines.log);
  } finally {
    await engines.close();
  }
}

/** Hands every record of `topic` after the group's position to `handle`, batch by batch, until the topic is drained. */
async function drain(log: EventLog, topic: string, groupId: string, handle: (records: LogRecord[]) => Promise<void>): Promise<void> {
  const consumer = log.consumer({ groupId, topics: [topic], fromBeginning: true });
  await consumer.start(async (batch) => handle(batch.records));
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const lag = await consumer.lag();
      if (lag.length > 0 && lag.every((entry) => entry.lag === 0)) break;
      if (Date.now() > deadline) throw new Error(`could not read ${topic} to its end within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await consumer.stop();
  }
}

async function ensureDeadLetterTopic(log: EventLog, topic: string): Promise<string> {
  const dlq = deadLetterTopic(topic);
  try {
    await log.ensureTopics([{ topic: dlq, partitions: await log.partitionCount(topic) }]);
  } catch {
    throw new AdminInputError(`unknown topic ${topic}: name a pipeline topic such as leads.submitted`);
  }
  return dlq;
}

function describe(record: LogRecord): Record<string, unknown> {
  return {
    partition: record.partition,
    offset: record.offset,
    source: record.headers['x-dlq-source'] ?? null,
    reason: record.headers['x-dlq-reason'] ?? null,
    key: record.key,
    value: record.value,
  };
}

export function dlqCommand(): Command {
  const dlq = new Command('dlq').description('show and re-queue dead letters (records a stage could not handle)');
  dlq
    .command('list')
    .description('list the dead letters of a topic')
    .requiredOption('--topic <topic>', 'the topic whose dead letters to show, e.g. leads.submitted')
    .option('--limit <n>', 'show at most this many (the oldest first)', '100')
    .option('--json', 'print one JSON document')
    .action(
      adminAction('dlq list', async (options: DlqOptions) => {
        const limit = Number(options.limit ?? '100');
        if (!Number.isInteger(limit) || limit < 1) throw new AdminInputError('--limit must be a positive integer');
        const letters = await withLog(async (log) => {
          const topic = await ensureDeadLetterTopic(log, options.topic);
          const found: LogRecord[] = [];
          // A throwaway group; it commits so that its lag says when the topic is read to its end.
          await drain(log, topic, `dlq-list.${randomUUID()}`, async (records) => {
            found.push(...records);
          });
          return found.sort((a, b) => a.timestamp - b.timestamp || a.partition - b.partition || Number(a.offset) - Number(b.offset)).slice(0, limit);
        });
        print(
          options.json,
          { topic: options.topic, dead_letters: letters.map(describe) },
          letters.length === 0
            ? [`no dead letters on ${deadLetterTopic(options.topic)}`]
            : letters.map((record) => {
                const entry = describe(record);
                return `${String(entry['partition'])}/${String(entry['offset'])}  from ${String(entry['source'])}  reason: ${String(entry['reason'])}  key: ${String(entry['key'])}  ${record.value.slice(0, 100)}`;
              }),
        );
      }),
    );
  dlq
    .command('replay')
    .description('put every dead letter of a topic not replayed before back on the topic, in order')
    .requiredOption('--topic <topic>', 'the topic whose dead letters to re-queue, e.g. leads.submitted')
    .option('--json', 'print the result as JSON')
    .action(
      adminAction('dlq replay', async (options: DlqOptions) => {
        const replayed = await withLog(async (log) => {
          const topic = await ensureDeadLetterTopic(log, options.topic);
          let count = 0;
          await drain(log, topic, REPLAY_GROUP, async (records) => {
            await log.produce(
              options.topic,
              records.map((record) => {
                const headers = Object.fromEntries(Object.entries(record.headers).filter(([name]) => !name.startsWith('x-dlq-')));
                return { key: record.key, value: record.value, headers: { ...headers, 'x-dlq-replayed-from': `${record.partition}/${record.offset}` } };
              }),
            );
            count += records.length;
          });
          return count;
        });
        print(options.json, { topic: options.topic, replayed }, [`replayed ${replayed} dead letter${replayed === 1 ? '' : 's'} to ${options.topic}`]);
      }),
    );
  return dlq;
}
