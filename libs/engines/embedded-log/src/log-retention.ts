/**
 * Retention of the embedded log: a record is deleted once every consumer group of its topic has
 * committed past it AND it is older than the retention period (docs/decisions.md "Retention and
 * backup"). What counts as "every group" of a topic:
 *
 * - every group with a committed offset on any partition of the topic (a group gone for good
 *   still holds its topic back at its last commit; the pass logs which group holds what);
 * - every group with live members subscribed to the topic, at its position in memory (members
 *   that do not commit offsets, such as the config cache, hold back what they have not read);
 * - a group of the topic without an offset on a partition holds that whole partition back.
 *
 * A topic no group has ever read (dead letters, replay markers) is kept whole. The newest record
 * of every partition is always kept: the log finds a partition's next offset from its highest
 * stored one, so deleting it would hand out offsets again after a restart.
 *
 * Deletes go in chunks of `chunkSize` rows, one write transaction each, with the event loop let
 * go in between, so a pass never holds the database's write lock for long.
 */
import type Database from 'better-sqlite3';
import { tp } from './consumer-group';
import type { LogTables } from './log-store';

export interface LogRetentionOptions {
  /** Records younger than this stay, whoever has read them (LOG_RETENTION_HOURS). */
  retentionMs: number;
  /** Rows deleted per write transaction; default 1,000. */
  chunkSize?: number;
  /** Milliseconds since the epoch; default Date.now (tests drive it). */
  now?: () => number;
}

export interface PruneReport {
  deleted: number;
  /** Write transactions the pass took. */
  chunks: number;
  /** Deleted records by topic (topics with none left out). */
  byTopic: Record<string, number>;
  /** Partitions where a group holds back records older than the retention period. */
  heldBack: Array<{ topic: string; partition: number; groupId: string; nextOffset: number }>;
}

/** What the pass needs from the log that owns the tables (EmbeddedLog). */
export interface RetentionHost {
  readonly db: Database.Database;
  readonly tables: LogTables;
  /** One write transaction on the log's connection. */
  write<R>(work: () => R): R;
  topics(): Iterable<{ topic: string; partitions: number }>;
  endOffset(topic: string, partition: number): number;
  /** Groups with live members: the topics they read and their positions in memory. */
  liveGroups(): Iterable<{ groupId: string; topics: Set<string>; positions: ReadonlyMap<string, number> }>;
  assertOpen(): void;
}

const DEFAULT_CHUNK = 1_000;

/** Per topic-partition: the lowest next offset of any group reading it, and which group that is. */
function readPositions(host: RetentionHost): Map<string, { nextOffset: number; groupId: string }> {
  const committed = host.db
    .prepare(`SELECT group_id, topic, partition_id, next_offset FROM ${host.tables.committed}`)
    .all() as Array<{ group_id: string; topic: string; partition_id: number; next_offset: number }>;
  const byGroup = new Map<string, Map<string, number>>();
  const groupsOfTopic = new Map<string, Set<string>>();
  for (const row of committed) {
    const offsets = byGroup.get(row.group_id) ?? new Map<string, number>();
    offsets.set(tp(row.topic, row.partition_id), row.next_offset);
    byGroup.set(row.group_id, offsets);
    groupsOfTopic.set(row.topic, (groupsOfTopic.get(row.topic) ?? new Set()).add(row.group_id));
  }
  const live = new Map<string, ReadonlyMap<string, number>>();
  for (const group of host.liveGroups()) {
    live.set(group.groupId, group.positions);
    for (const topic of group.topics)
      groupsOfTopic.set(topic, (groupsOfTopic.get(topic) ?? new Set()).add(group.groupId));
  }
  const lowest = new Map<string, { nextOffset: number; groupId: string }>();
  for (const { topic, partitions } of host.topics()) {
    const groups = groupsOfTopic.get(topic);
    if (!groups) continue; // nobody reads it: kept whole
    for (let partition = 0; partition < partitions; partition++) {
      const key = tp(topic, partition);
      for (const groupId of groups) {
        // A live group's position is at least its committed offset; without either it holds everything.
        const nextOffset = live.get(groupId)?.get(key) ?? byGroup.get(groupId)?.get(key) ?? 0;
        const current = lowest.get(key);
        if (!current || nextOffset < current.nextOffset) lowest.set(key, { nextOffset, groupId });
      }
    }
  }
  return lowest;
}

export async function pruneLog(host: RetentionHost, options: LogRetentionOptions): Promise<PruneReport> {
  host.assertOpen();
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK);
  const cutoff = (options.now ?? Date.now)() - options.retentionMs;
  const { records } = host.tables;
  const deleteChunk = host.db.prepare(
    `DELETE FROM ${records} WHERE topic = ? AND partition_id = ? AND log_offset IN (
       SELECT log_offset FROM ${records} WHERE topic = ? AND partition_id = ? AND log_offset < ? AND timestamp < ?
       ORDER BY log_offset LIMIT ?)`,
  );
  const timestampAt = host.db
    .prepare(`SELECT timestamp FROM ${records} WHERE topic = ? AND partition_id = ? AND log_offset = ?`)
    .pluck();
  const report: PruneReport = { deleted: 0, chunks: 0, byTopic: {}, heldBack: [] };
  const topics = new Map([...host.topics()].map((t) => [t.topic, t.partitions]));
  for (const [key, { nextOffset, groupId }] of readPositions(host)) {
    const [topic, partitionText] = key.split('\u0000') as [string, string];
    const partition = Number(partitionText);
    if (!topics.has(topic)) continue;
    // Keep the newest record of the partition whatever the groups have read (see above).
    const bound = Math.min(nextOffset, host.endOffset(topic, partition) - 1);
    if (bound < host.endOffset(topic, partition) - 1) {
      const held = timestampAt.get(topic, partition, nextOffset) as number | undefined;
      if (held !== undefined && held < cutoff) report.heldBack.push({ topic, partition, groupId, nextOffset });
    }
    if (bound <= 0) continue;
    for (;;) {
      host.assertOpen();
      const deleted = host.write(
        () => deleteChunk.run(topic, partition, topic, partition, bound, cutoff, chunkSize).changes,
      );
      report.chunks += 1;
      if (deleted > 0) {
        report.deleted += deleted;
        report.byTopic[topic] = (report.byTopic[topic] ?? 0) + deleted;
      }
      if (deleted < chunkSize) break;
      // Let the batches waiting for the write lock (and everything else on this thread) run.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return report;
}

/** The part of a pino logger the pruner uses. */
export interface PrunerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface LogPrunerOptions extends LogRetentionOptions {
  /** Time between passes; default 10 minutes. The first pass runs one interval after start. */
  intervalMs?: number;
  logger?: PrunerLogger;
}

/** Runs `prune` every interval on the process that owns the log, logging each pass with its counts. */
export class LogPruner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<PruneReport | undefined> | undefined;

  constructor(
    private readonly log: { prune(options: LogRetentionOptions): Promise<PruneReport> },
    private readonly options: LogPrunerOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.options.intervalMs ?? 600_000);
    this.timer.unref(); // retention must never keep a process alive
  }

  /** One pass (none while another runs); logs its counts, or a warning when it failed. */
  runOnce(): Promise<PruneReport | undefined> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async pass(): Promise<PruneReport | undefined> {
    const started = performance.now();
    try {
      const report = await this.log.prune(this.options);
      this.options.logger?.info(
        {
          deleted: report.deleted,
          chunks: report.chunks,
          byTopic: report.byTopic,
          heldBack: report.heldBack,
          retentionHours: this.options.retentionMs / 3_600_000,
          ms: Math.round(performance.now() - started),
        },
        'embedded event log pruned',
      );
      return report;
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'embedded event log pruning failed; trying again at the next interval');
      return undefined;
    }
  }
}
