import { performance } from 'node:perf_hooks';

/**
 * Intake first (docs/pipeline.md, "Intake first"). Where the intake chain shares a thread with the
 * outbound stages (notify, deliver, crm-sync, rule-webhook: one process of `leadstream start`),
 * every lead a client waits on competes with the webhook deliveries and CRM calls of the leads
 * before it, and an organization with 10 webhooks subscribed to every event owes some 40 deliveries
 * a lead. While the intake is busy and the thread saturated, the outbound stages together keep
 * `share` of the thread's time: after an outbound commit of t ms the next outbound batch (of any of
 * them) waits until t x (1 - share) / share has passed (BatchStageHandler reports the commits). When the intake is idle or the thread has
 * time to spare, they run as soon as they have work. Deliveries then lag behind a saturating intake
 * and catch up when it eases; nothing is skipped (their records wait in the log).
 */
export interface IntakePriorityOptions {
  /** The share of the thread's time the outbound stages keep while the intake is busy, in (0, 1]. */
  share: number;
  /** How long after its last batch the intake counts as busy (ms). */
  busyWindowMs?: number;
  /** The thread's busy fraction over which it counts as saturated. */
  saturatedAbove?: number;
  now?: () => number;
  /** The thread's busy fraction since the previous call (event-loop utilization by default). */
  utilization?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Told of each wait of an outbound batch (ms), for the metric. */
  onWait?: (ms: number) => void;
}

/** How often the thread's utilization is sampled (ms); shorter samples are too noisy to act on. */
const SAMPLE_MS = 100;
/** The longest an outbound batch waits in one go; it looks again after it. */
const MAX_WAIT_MS = 250;
/**
 * The most the outbound stages may owe (ms): one long commit (on Kafka + a MongoDB-protocol store a
 * commit is mostly waiting on the network) must not hold the outbound work back for long.
 */
const MAX_OWED_MS = 1_000;

export class IntakePriority {
  private readonly share: number;
  private readonly busyWindowMs: number;
  private readonly saturatedAbove: number;
  private readonly now: () => number;
  private readonly utilization: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private lastIntakeAt = Number.NEGATIVE_INFINITY;
  private sampledAt: number;
  private saturated = false;
  /** When the next outbound batch may start while the intake is busy. */
  private outboundAt = Number.NEGATIVE_INFINITY;
  private readonly onWait: (ms: number) => void;

  constructor(options: IntakePriorityOptions) {
    if (!(options.share > 0 && options.share <= 1)) throw new RangeError('share must be in (0, 1]');
    this.share = options.share;
    this.busyWindowMs = options.busyWindowMs ?? 1_000;
    this.saturatedAbove = options.saturatedAbove ?? 0.8;
    this.now = options.now ?? (() => performance.now());
    this.utilization = options.utilization ?? eventLoopUtilization();
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.onWait = options.onWait ?? (() => undefined);
    this.sampledAt = this.now();
  }

  /** The intake chain handled a batch. */
  intakeRan(): void {
    this.lastIntakeAt = this.now();
  }

  /** Whether the intake ran lately: outbound work then goes a few records at a time. */
  intakeActive(): boolean {
    return this.now() - this.lastIntakeAt <= this.busyWindowMs;
  }

  /** Whether outbound work yields now: the intake ran lately and the thread has no time to spare. */
  intakeBusy(): boolean {
    const now = this.now();
    if (now - this.sampledAt >= SAMPLE_MS) {
      this.saturated = this.utilization() >= this.saturatedAbove;
      this.sampledAt = now;
    }
    return this.saturated && this.intakeActive();
  }

  /** Waits, before an outbound batch, until the outbound stages' share allows it (or the intake eases). */
  async outboundTurn(isStopping: () => boolean = () => false): Promise<void> {
    if (!this.intakeBusy()) return;
    for (;;) {
      const wait = this.outboundAt - this.now();
      if (wait <= 0 || isStopping() || !this.intakeBusy()) break;
      const ms = Math.min(wait, MAX_WAIT_MS);
      this.onWait(ms);
      await this.sleep(ms);
    }
    // The intake's pending I/O (its next batch, the answers) goes first even when no wait is owed.
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** An outbound commit took `elapsedMs`: while the intake is busy, the next batch waits its share. */
  outboundRan(elapsedMs: number): void {
    if (!this.intakeBusy()) return;
    const now = this.now();
    const owed = Math.max(this.outboundAt, now) + (elapsedMs * (1 - this.share)) / this.share;
    this.outboundAt = Math.min(owed, now + MAX_OWED_MS);
  }
}

/** The thread's event-loop utilization since the previous call. */
function eventLoopUtilization(): () => number {
  let previous = performance.eventLoopUtilization();
  return () => {
    const current = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(current, previous);
    previous = current;
    return delta.utilization;
  };
}
