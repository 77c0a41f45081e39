/**
 * Volume caps (docs/caps.md), in two collections:
 * - `caps`: one document per cap, an organization configuration like routing rules (conditions as
 *   JSON text, so a condition value may be any text);
 * - `cap_counts`: one document per counted lead and period, `_id` = `<cap>|<period start>|<slot>`
 *   with `slot` in 0..maximum-1. A lead is counted by inserting its slot document: the unique `_id`
 *   makes the count exact on every engine (an insert is atomic on SQLite and on any
 *   MongoDB-protocol server, where an increment may not be: docs/decisions.md "Volume caps").
 *   The documents name the lead, so a batch decided again after a failure finds its leads counted
 *   already and takes no second slot. They expire 35 days after their period ends.
 */
import type { CapPeriod, CapSettings } from '@leadstream/domain';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@leadstream/ports';
import { OrganizationConfigRepository } from './organization-config.repository';

export const CAPS_COLLECTION = 'caps';
export const CAP_COUNTS_COLLECTION = 'cap_counts';
/** How long a period's counts are kept after it ended (the usage of last month stays readable). */
const KEEP_AFTER_PERIOD_MS = 35 * 86_400_000;
/** Rounds of a reservation that lost every race for its slots before the batch is retried. */
const MAX_ROUNDS = 64;

export class CapRepository extends OrganizationConfigRepository<CapSettings> {
  constructor(store: DocumentStore) {
    super(store, CAPS_COLLECTION, { created_at: 1, _id: 1 }, undefined, ['conditions']);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await OrganizationConfigRepository.ensureConfigIndexes(store, CAPS_COLLECTION);
    await CapCounterRepository.ensureIndexes(store);
  }
}

interface CapCountDocument {
  _id: string;
  cap_id: string;
  organization_id: string;
  period_start: string;
  period_end: string;
  slot: number;
  /** The counted lead; a `reached` marker names the lead that filled the cap. */
  lead_id: string;
  kind: 'count' | 'reached';
  counted_at: string;
  expires_at: Date;
}

export interface CapReservation {
  /** The leads counted in the period (now or by an earlier attempt of the same batch). */
  counted: Set<string>;
  /** How many leads the period has counted, after this reservation. */
  count: number;
}

export interface CapCounterKey {
  organizationId: string;
  capId: string;
  period: CapPeriod;
}

export class CapCounterRepository {
  private readonly counts: Collection<CapCountDocument>;

  constructor(store: DocumentStore) {
    this.counts = store.collection<CapCountDocument>(CAP_COUNTS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    const counts = store.collection(CAP_COUNTS_COLLECTION);
    await counts.createIndex({ keys: { cap_id: 1, period_start: 1, lead_id: 1 }, name: 'cap_period_lead' });
    await counts.createIndex({ keys: { cap_id: 1, period_start: 1, slot: 1 }, name: 'cap_period_slot' });
    await counts.createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 });
  }

  private static slotId(key: CapCounterKey, slot: number | 'reached'): string {
    return `${key.capId}|${key.period.start}|${slot}`;
  }

  private periodFilter(key: CapCounterKey): Record<string, string> {
    return { cap_id: key.capId, period_start: key.period.start, kind: 'count' };
  }

  /** How many leads the cap has counted in the period. */
  async count(key: CapCounterKey): Promise<number> {
    return this.counts.countDocuments(this.periodFilter(key));
  }

  /**
   * Counts as many of `leadIds` (in order) as the cap has room for in the period, each in a slot of
   * its own below `maximum`; leads counted before (a batch decided again) keep theirs.
   */
  async reserve(key: CapCounterKey, maximum: number, leadIds: readonly string[], at: string): Promise<CapReservation> {
    const wanted = [...new Set(leadIds)];
    const counted = new Set<string>();
    const refresh = async (): Promise<void> => {
      const found = await this.counts.find({ ...this.periodFilter(key), lead_id: { $in: wanted } });
      for (const doc of found) counted.add(doc.lead_id);
    };
    await refresh();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const pending = wanted.filter((id) => !counted.has(id));
      const total = await this.count(key);
      if (pending.length === 0 || total >= maximum) return { counted, count: total };
      const slots = await this.freeSlots(key, maximum, total, pending.length);
      const docs = pending
        .slice(0, slots.length)
        .map((leadId, index) => this.slotDocument(key, slots[index]!, leadId, at));
      if (docs.length === 0) return { counted, count: total };
      try {
        // Ordered: the documents before a slot another batch took are written, the rest are not.
        await this.counts.insertMany(docs);
        for (const doc of docs) counted.add(doc.lead_id);
        // Counted again, not `total + docs.length`: a concurrent batch may have filled slots since
        // `total` was read, and the batch that sees the cap full must know it (cap.reached).
        return { counted, count: await this.count(key) };
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        await refresh();
      }
    }
    throw new Error(`cap ${key.capId}: no free slot after ${MAX_ROUNDS} rounds of concurrent reservations`);
  }

  /** Uncounts leads (a lead another cap refused after this one counted it); their slots are free again. */
  async release(key: CapCounterKey, leadIds: readonly string[]): Promise<void> {
    if (leadIds.length === 0) return;
    await this.counts.deleteMany({ ...this.periodFilter(key), lead_id: { $in: [...leadIds] } });
  }

  /**
   * Marks the period as reached by `leadId`, once: true for the lead that marked it first (or for
   * that same lead again, a batch decided again), so `cap.reached` is produced once per period.
   */
  async markReached(key: CapCounterKey, leadId: string, at: string): Promise<boolean> {
    const doc: CapCountDocument = { ...this.slotDocument(key, -1, leadId, at), kind: 'reached' };
    doc._id = CapCounterRepository.slotId(key, 'reached');
    try {
      await this.counts.insertOne(doc);
      return true;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return (await this.counts.findOne({ _id: doc._id }))?.lead_id === leadId;
    }
  }

  /** The first `wanted` free slots below `maximum`: after the highest taken one, and any freed ones below it. */
  private async freeSlots(key: CapCounterKey, maximum: number, total: number, wanted: number): Promise<number[]> {
    const top = await this.counts.findOne(this.periodFilter(key), { sort: { slot: -1 } });
    const next = top ? top.slot + 1 : 0;
    const slots: number[] = [];
    if (next > total) {
      // A released lead left a hole: read the taken slots to find it.
      const taken = new Set((await this.counts.find(this.periodFilter(key))).map((doc) => doc.slot));
      for (let slot = 0; slot < next && slots.length < wanted; slot++) if (!taken.has(slot)) slots.push(slot);
    }
    for (let slot = next; slot < maximum && slots.length < wanted; slot++) slots.push(slot);
    return slots;
  }

  private slotDocument(key: CapCounterKey, slot: number, leadId: string, at: string): CapCountDocument {
    return {
      _id: CapCounterRepository.slotId(key, slot),
      cap_id: key.capId,
      organization_id: key.organizationId,
      period_start: key.period.start,
      period_end: key.period.end,
      slot,
      lead_id: leadId,
      kind: 'count',
      counted_at: at,
      expires_at: new Date(Date.parse(key.period.end) + KEEP_AFTER_PERIOD_MS),
    };
  }
}
