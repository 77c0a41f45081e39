/**
 * Which partitions the consumer groups of this process have a batch of in hand, and since when,
 * so that a stage stalled on one partition shows (docs/decisions.md "Stuck partitions"). A
 * partition is in hand from the moment its batch is handed to a handler until the handler
 * returns; a batch that fails stays in hand, and when the same offset is delivered again (to this
 * member or another of the group in this process) the time runs on from the first delivery. A
 * partition in hand for longer than `stuckAfterMs` (STUCK_PARTITION_MS) is stuck: /readyz then
 * reports `degraded` naming it (the process stays ready: restarting it rarely unsticks a stage,
 * and it still serves the rest), and `leadstream_partition_stuck_seconds` shows it.
 *
 * Delay topics do not count their wait: the engines hand a delayed record over only once it is due.
 */

export const DEFAULT_STUCK_PARTITION_MS = 120_000;

export interface PartitionWatchOptions {
  /** In hand longer than this is stuck (default DEFAULT_STUCK_PARTITION_MS). */
  stuckAfterMs?: number;
  /**
   * Milliseconds; only differences count (default `performance.now`, which a step of the wall
   * clock does not move); tests move their own.
   */
  clock?: () => number;
}

export interface StuckPartition {
  group: string;
  topic: string;
  partition: number;
  /** The first offset of the batch in hand. */
  offset: string;
  in_hand_seconds: number;
}

interface Hold {
  /** The consumer-group member holding it (a ConsumerRunner). */
  holder: object;
  group: string;
  topic: string;
  partition: number;
  offset: string;
  since: number;
  failed: boolean;
}

/** What a readiness check of @leadstream/http needs (the library depends on this one, not the other way round). */
export interface PartitionReadinessCheck {
  name: string;
  check: () => Promise<void>;
  details: () => Record<string, unknown>;
}

/** The part of a pino logger the stuck-partition log uses. */
export interface StuckPartitionLogger {
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

export class PartitionWatch {
  readonly stuckAfterMs: number;
  private readonly clock: () => number;
  private readonly holds = new Map<string, Hold>();
  /** The stuck partitions the last report logged, by partition and offset. */
  private reported = new Map<string, StuckPartition>();

  constructor(options: PartitionWatchOptions = {}) {
    this.stuckAfterMs = options.stuckAfterMs ?? DEFAULT_STUCK_PARTITION_MS;
    this.clock = options.clock ?? (() => performance.now());
  }

  /** A batch of the partition, starting at `offset`, was handed to `holder`'s handler. */
  begin(holder: object, group: string, topic: string, partition: number, offset: string): void {
    const key = keyOf(group, topic, partition);
    const earlier = this.holds.get(key);
    // The same offset again (delivered again after a failure): still in hand since the first time.
    const since = earlier && earlier.offset === offset ? earlier.since : this.clock();
    this.holds.set(key, { holder, group, topic, partition, offset, since, failed: false });
  }

  /** The handler finished the batch: the partition is no longer in hand. */
  end(holder: object, group: string, topic: string, partition: number): void {
    const key = keyOf(group, topic, partition);
    if (this.holds.get(key)?.holder === holder) this.holds.delete(key);
  }

  /** The handler failed: the offset stays in hand until a delivery of it succeeds. */
  fail(holder: object, group: string, topic: string, partition: number): void {
    const hold = this.holds.get(keyOf(group, topic, partition));
    if (hold?.holder === holder) hold.failed = true;
  }

  /** The member stopped: what it had in hand is not any more, but for an offset that failed. */
  release(holder: object): void {
    for (const [key, hold] of this.holds) if (hold.holder === holder && !hold.failed) this.holds.delete(key);
  }

  /** Every partition in hand, longest first. */
  inHand(): StuckPartition[] {
    const now = this.clock();
    return [...this.holds.values()]
      .sort((a, b) => a.since - b.since)
      .map(({ group, topic, partition, offset, since }) => ({
        group,
        topic,
        partition,
        offset,
        in_hand_seconds: Math.round(now - since) / 1000,
      }));
  }

  /** The partitions in hand for longer than `stuckAfterMs`, longest first. */
  stuck(): StuckPartition[] {
    return this.inHand().filter((entry) => entry.in_hand_seconds * 1000 > this.stuckAfterMs);
  }

  /** For /readyz: `status` ok or degraded, and the stuck partitions. */
  details(): Record<string, unknown> {
    const stuck = this.stuck();
    return stuck.length === 0
      ? { status: 'ok', stuck_after_ms: this.stuckAfterMs }
      : { status: 'degraded', stuck_after_ms: this.stuckAfterMs, stuck };
  }

  /**
   * Logs each partition that became stuck since the last report (warn `partition_stuck`, once per
   * batch offset) and each one that moved on since (info `partition_moving`), so a stalled stage
   * shows in the logs too, not only on /readyz and /metrics.
   */
  reportStuck(logger: StuckPartitionLogger): void {
    const now = new Map(
      this.stuck().map((entry) => [`${keyOf(entry.group, entry.topic, entry.partition)}\u0000${entry.offset}`, entry]),
    );
    for (const [key, entry] of now)
      if (!this.reported.has(key))
        logger.warn(
          { code: 'partition_stuck', ...entry, stuck_after_ms: this.stuckAfterMs },
          `partition ${entry.topic}/${entry.partition} of group ${entry.group} has held offset ${entry.offset} for ${entry.in_hand_seconds} s`,
        );
    for (const [key, entry] of this.reported)
      if (!now.has(key))
        logger.info(
          {
            code: 'partition_moving',
            group: entry.group,
            topic: entry.topic,
            partition: entry.partition,
            offset: entry.offset,
          },
          `partition ${entry.topic}/${entry.partition} of group ${entry.group} moved past offset ${entry.offset}`,
        );
    this.reported = now;
  }

  /** Runs reportStuck every `everyMs` (default a quarter of stuckAfterMs, 1-15 s); returns the stop. */
  logStuck(
    logger: StuckPartitionLogger,
    everyMs = Math.max(1_000, Math.min(15_000, this.stuckAfterMs / 4)),
  ): () => void {
    const timer = setInterval(() => this.reportStuck(logger), everyMs);
    timer.unref(); // never keeps a process alive
    return () => clearInterval(timer);
  }

  /** A readiness check that always passes and shows `details()`: a stuck partition degrades the process, it does not make it unready. */
  readinessCheck(name = 'partitions'): PartitionReadinessCheck {
    return { name, check: async () => undefined, details: () => this.details() };
  }
}

function keyOf(group: string, topic: string, partition: number): string {
  return `${group}\u0000${topic}\u0000${partition}`;
}
