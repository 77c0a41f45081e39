/**
 * `leadstream dlq list --topic T` and `leadstream dlq replay --topic T` (README "Dead letters";
 * docs/decisions.md "Ingestion pipeline", dead-letter replay): what a stage dead-lettered from T
 * (`T.dlq`, with `x-dlq-reason` and `x-dlq-source`), and putting it back on T once the cause is
 * fixed.
 *
 * Replay re-produces the chosen dead letters (`--offset P/O`, repeatable, or `--all`: every one
 * not replayed before, the default), in order, with key, value and headers (less the x-dlq-* ones,
 * plus `x-dlq-replayed-from: <partition>/<offset>`). What was replayed is a marker record per dead
 * letter on `T.dlq.replayed` (key `<partition>/<offset>`), so replaying twice queues nothing twice,
 * and one dead letter can be replayed alone without the ones before it counting as replayed (a
 * consumer group's offset could not say that). A crash between the produce and its markers may
 * queue a record again; the stages apply a message once (its id), so that changes nothing.
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

interface ListOptions {
  topic: string;
  json?: boolean;
  limit: string;
}

interface ReplayOptions {
  topic: string;
  json?: boolean;
  offset?: string[];
  all?: boolean;
}

/** Where the replays of T's dead letters are recorded: one marker record per replayed dead letter. */
export const replayedTopic = (topic: string): string => `${deadLetterTopic(topic)}.replayed`;

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

/** Every record of `topic`, read with a throwaway group (it commits, so its lag says when the topic is read to its end). */
async function readAll(log: EventLog, topic: string): Promise<LogRecord[]> {
  const found: LogRecord[] = [];
  const consumer = log.consumer({ groupId: `dlq-read.${randomUUID()}`, topics: [topic], fromBeginning: true });
  await consumer.start(async (batch) => {
    found.push(...batch.records);
  });
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
  return found.sort((a, b) => a.partition - b.partition || Number(a.offset) - Number(b.offset));
}

const position = (record: LogRecord): string => `${record.partition}/${record.offset}`;

/** T's dead letters, and for each one replayed before the position on T it went to. */
async function deadLetters(
  log: EventLog,
  topic: string,
): Promise<{ letters: LogRecord[]; replayed: Map<string, string> }> {
  const dlq = deadLetterTopic(topic);
  try {
    await log.ensureTopics([
      { topic: dlq, partitions: await log.partitionCount(topic) },
      { topic: replayedTopic(topic), partitions: 1 },
    ]);
  } catch {
    throw new AdminInputError(`unknown topic ${topic}: name a pipeline topic such as leads.submitted`);
  }
  const [letters, markers] = await Promise.all([readAll(log, dlq), readAll(log, replayedTopic(topic))]);
  const replayed = new Map<string, string>();
  for (const marker of markers)
    if (marker.key !== null) replayed.set(marker.key, marker.headers['x-dlq-replayed-to'] ?? '');
  return { letters, replayed };
}

function describe(record: LogRecord, replayedTo: string | undefined): Record<string, unknown> {
  return {
    partition: record.partition,
    offset: record.offset,
    source: record.headers['x-dlq-source'] ?? null,
    reason: record.headers['x-dlq-reason'] ?? null,
    key: record.key,
    value: record.value,
    replayed_to: replayedTo ?? null,
  };
}

/** `--offset 1/42` as `list` prints it: the dead letter's partition and offset on T.dlq. */
function parsePositions(values: string[]): string[] {
  return values.map((value) => {
    const match = /^(\d+)\/(\d+)$/.exec(value.trim());
    if (!match)
      throw new AdminInputError(
        `--offset ${value}: give a dead letter's partition/offset as \`dlq list\` prints it, e.g. 0/12`,
      );
    return `${Number(match[1])}/${BigInt(match[2]!).toString()}`;
  });
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
      adminAction('dlq list', async (options: ListOptions) => {
        const limit = Number(options.limit);
        if (!Number.isInteger(limit) || limit < 1) throw new AdminInputError('--limit must be a positive integer');
        const { letters, replayed } = await withLog((log) => deadLetters(log, options.topic));
        const shown = letters
          .sort((a, b) => a.timestamp - b.timestamp || a.partition - b.partition || Number(a.offset) - Number(b.offset))
          .slice(0, limit);
        print(
          options.json,
          {
            topic: options.topic,
            dead_letters: shown.map((record) => describe(record, replayed.get(position(record)))),
          },
          shown.length === 0
            ? [`no dead letters on ${deadLetterTopic(options.topic)}`]
            : shown.map((record) => {
                const to = replayed.get(position(record));
                return [
                  position(record),
                  `from ${record.headers['x-dlq-source'] ?? '?'}`,
                  `reason: ${record.headers['x-dlq-reason'] ?? '?'}`,
                  `key: ${record.key ?? ''}`,
                  ...(to === undefined ? [] : [`replayed to ${to}`]),
                  record.value.slice(0, 100),
                ].join('  ');
              }),
        );
      }),
    );
  dlq
    .command('replay')
    .description('put dead letters back on their topic, in order; each is replayed at most once')
    .requiredOption('--topic <topic>', 'the topic whose dead letters to re-queue, e.g. leads.submitted')
    .option('--offset <partition/offset...>', 'only these dead letters, as `dlq list` shows them (e.g. 0/12)')
    .option('--all', 'every dead letter not replayed before (the default)')
    .option('--json', 'print the result as JSON')
    .action(
      adminAction('dlq replay', async (options: ReplayOptions) => {
        if (options.all && options.offset) throw new AdminInputError('give either --offset or --all, not both');
        const named = options.offset ? parsePositions(options.offset) : undefined;
        const result = await withLog(async (log) => {
          const { letters, replayed } = await deadLetters(log, options.topic);
          const byPosition = new Map(letters.map((record) => [position(record), record]));
          const missing = (named ?? []).filter((at) => !byPosition.has(at));
          if (missing.length > 0)
            throw new AdminInputError(
              `no dead letter at ${missing.join(', ')} on ${deadLetterTopic(options.topic)} (see dlq list)`,
            );
          const chosen = named ? letters.filter((record) => named.includes(position(record))) : letters;
          const skipped = chosen.filter((record) => replayed.has(position(record))).map(position);
          const due = chosen.filter((record) => !replayed.has(position(record)));
          if (due.length === 0) return { replays: [], skipped };
          const sent = await log.produce(
            options.topic,
            due.map((record) => {
              const headers = Object.fromEntries(
                Object.entries(record.headers).filter(([name]) => !name.startsWith('x-dlq-')),
              );
              return {
                key: record.key,
                value: record.value,
                headers: { ...headers, 'x-dlq-replayed-from': position(record) },
              };
            }),
          );
          const replays = due.map((record, index) => ({
            from: position(record),
            to: `${sent[index]!.partition}/${sent[index]!.offset}`,
          }));
          // Recorded after the produce: a crash in between replays again, never loses a replay.
          await log.produce(
            replayedTopic(options.topic),
            replays.map((replay) => ({
              key: replay.from,
              value: JSON.stringify({ dead_letter: replay.from, replayed_to: replay.to }),
              headers: { 'x-dlq-replayed-to': replay.to },
            })),
          );
          return { replays, skipped };
        });
        const count = result.replays.length;
        print(
          options.json,
          { topic: options.topic, replayed: count, replays: result.replays, replayed_before: result.skipped },
          [
            `replayed ${count} dead letter${count === 1 ? '' : 's'} to ${options.topic}`,
            ...(named && result.skipped.length > 0 ? [`replayed before, not again: ${result.skipped.join(', ')}`] : []),
          ],
        );
      }),
    );
  return dlq;
}
