/**
 * In-memory coordination of one consumer group of the embedded log (the engine is single-process).
 *
 * Partitions are assigned round-robin over the live members sorted by member id (ids grow with
 * join order), per topic among the members subscribed to it, and reassigned on every join and
 * leave. Assignment says who should own a partition; a member must also *claim* it for each
 * batch, and a claim is refused while another member still has a batch of that partition in
 * flight. So a partition is never handed to a new member before the old one has finished (and
 * committed) its batch: the new owner is woken when the claim is released.
 */
import type { Assignment } from '@leadstream/ports';
import type { WakeSignal } from './wake-signal';

export interface GroupMember {
  id: string;
  topics: string[];
  signal: WakeSignal;
}

export const tp = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

export class ConsumerGroup {
  private readonly members = new Map<string, GroupMember>();
  /** member id -> topic -> partitions */
  private assignments = new Map<string, Map<string, number[]>>();
  /** topic-partition -> member id that should own it now */
  private owners = new Map<string, string>();
  /** topic-partition -> member id with a batch in flight */
  private readonly claims = new Map<string, string>();
  /** topic-partition -> next offset to read: the committed offset, or where a new group starts */
  readonly positions = new Map<string, number>();

  constructor(
    readonly groupId: string,
    private readonly partitionCount: (topic: string) => number,
  ) {}

  isEmpty(): boolean {
    return this.members.size === 0;
  }

  /** The topics its live members read (log retention keeps what they have not read yet). */
  subscribedTopics(): Set<string> {
    return new Set([...this.members.values()].flatMap((m) => m.topics));
  }

  join(member: GroupMember): void {
    this.members.set(member.id, member);
    this.rebalance();
  }

  leave(memberId: string): void {
    if (!this.members.delete(memberId)) return;
    for (const [key, holder] of this.claims) if (holder === memberId) this.claims.delete(key);
    this.rebalance();
  }

  assignment(memberId: string): Assignment[] {
    const byTopic = this.assignments.get(memberId);
    if (!byTopic) return [];
    return [...byTopic].map(([topic, partitions]) => ({ topic, partitions: [...partitions] }));
  }

  /** Takes a partition for one batch; false when the member does not own it or it is still in flight elsewhere. */
  claim(memberId: string, topic: string, partition: number): boolean {
    const key = tp(topic, partition);
    if (this.owners.get(key) !== memberId) return false;
    const holder = this.claims.get(key);
    if (holder !== undefined && holder !== memberId) return false;
    this.claims.set(key, memberId);
    return true;
  }

  release(memberId: string, topic: string, partition: number): void {
    const key = tp(topic, partition);
    if (this.claims.get(key) !== memberId) return;
    this.claims.delete(key);
    // Someone else may be waiting for this partition after a rebalance.
    const owner = this.owners.get(key);
    if (owner !== undefined && owner !== memberId) this.members.get(owner)?.signal.notify();
  }

  private rebalance(): void {
    const sorted = [...this.members.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const topics = new Set(sorted.flatMap((m) => m.topics));
    const assignments = new Map<string, Map<string, number[]>>();
    const owners = new Map<string, string>();
    for (const m of sorted) assignments.set(m.id, new Map());
    for (const topic of topics) {
      const subscribers = sorted.filter((m) => m.topics.includes(topic));
      const partitions = this.partitionCount(topic);
      for (let p = 0; p < partitions; p++) {
        const owner = subscribers[p % subscribers.length]!;
        owners.set(tp(topic, p), owner.id);
        const byTopic = assignments.get(owner.id)!;
        byTopic.set(topic, [...(byTopic.get(topic) ?? []), p]);
      }
    }
    this.assignments = assignments;
    this.owners = owners;
    for (const m of sorted) m.signal.notify();
  }
}
