/**
 * Synchronous answers over the asynchronous pipeline (docs/pipeline.md). Each api process is its
 * own consumer group on leads.decisions, so it sees every decision and picks out those it is
 * waiting for by correlation id. On the embedded engines the thread that commits a batch hands
 * its decisions over directly (`deliver`) and no consumer runs. A request waits until its
 * deadline, then answers 202.
 */
import { randomUUID } from 'node:crypto';
import type { Batch, Consumer, EventLog } from '@leadstream/ports';
import { DECISIONS_TOPIC } from '@leadstream/runtime';
import { parseLeadDecision, type LeadDecisionMessage } from '@leadstream/schemas';

export { DECISIONS_TOPIC };

interface Waiter {
  resolve: (decision: LeadDecisionMessage | null) => void;
  timer: NodeJS.Timeout;
}

export class DecisionWaiter {
  private readonly waiters = new Map<string, Waiter>();
  private consumer: Consumer | undefined;

  constructor(
    private readonly log: EventLog,
    private readonly instanceId: string = randomUUID().slice(0, 12),
  ) {}

  /** Joins the instance's own group, positioned at the end of the topic. */
  async start(): Promise<void> {
    this.consumer = this.log.consumer({
      groupId: `api-decisions.${this.instanceId}`,
      topics: [DECISIONS_TOPIC],
      fromBeginning: false,
      commitOffsets: false,
    });
    await this.consumer.start(async (batch: Batch) => this.deliver(batch.records.map((record) => record.value)));
  }

  /** Decisions (as produced to leads.decisions) that resolve whoever waits for them. */
  deliver(values: readonly string[]): void {
    for (const value of values) {
      let decision: LeadDecisionMessage;
      try {
        decision = parseLeadDecision(JSON.parse(value));
      } catch {
        continue; // not ours to repair: the producing stage validated it
      }
      const waiter = this.waiters.get(decision.correlation_id);
      if (!waiter) continue;
      this.waiters.delete(decision.correlation_id);
      clearTimeout(waiter.timer);
      waiter.resolve(decision);
    }
  }

  /**
   * Registers interest in a decision BEFORE the command is produced (so a fast pipeline cannot
   * answer before anyone listens). Resolves with the decision, or null at the deadline.
   */
  expect(correlationId: string, timeoutMs: number): Promise<LeadDecisionMessage | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(correlationId);
        resolve(null);
      }, timeoutMs);
      timer.unref();
      this.waiters.set(correlationId, { resolve, timer });
    });
  }

  /** Gives up on a decision (e.g. the command could not be produced). */
  forget(correlationId: string): void {
    const waiter = this.waiters.get(correlationId);
    if (!waiter) return;
    clearTimeout(waiter.timer);
    this.waiters.delete(correlationId);
    waiter.resolve(null);
  }

  async stop(): Promise<void> {
    for (const id of [...this.waiters.keys()]) this.forget(id);
    await this.consumer?.stop();
  }
}
