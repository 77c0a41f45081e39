/**
 * Periodic maintenance that one process does for the whole deployment (the outbox sweep): every
 * process that runs the timer asks for the turn, the one that gets it does the work, and the
 * others skip until the turn is due again. Without it each worker process repeated the same sweep:
 * on FerretDB a range read of `leads` is a read of the whole collection (its filters push only
 * equality down to PostgreSQL), about 0.8 s of the server's CPU for 1,500 leads, every 10 s in
 * every process (docs/chaos.md).
 *
 * A turn is one document per task, `{ _id: task, next_at }`, taken in one compare-and-set
 * (`next_at` due, or no document yet: the upsert inserts it); a turn not due makes the upsert
 * collide with the stored document, which is the answer "not yours". A `next_at` more than an
 * interval ahead (written by a process whose clock ran ahead) counts as due, so a wrong clock
 * cannot stop the task. The work must bear being done twice now and then: FerretDB 1.24 does not
 * apply a conditional update atomically (docs/store.md), so two processes asking at the same
 * moment may both get a turn there (the first one, an insert, is always one caller's).
 */
import { DuplicateKeyError, type Collection, type DocumentStore } from '@leadstream/ports';

export interface MaintenanceTurnRecord {
  _id: string;
  /** When the next turn may be taken (ISO 8601). */
  next_at: string;
}

export const MAINTENANCE_TURNS_COLLECTION = 'maintenance_turns';

export class MaintenanceTurns {
  private readonly turns: Collection<MaintenanceTurnRecord>;

  constructor(store: DocumentStore) {
    this.turns = store.collection<MaintenanceTurnRecord>(MAINTENANCE_TURNS_COLLECTION);
  }

  /** True when this caller has the turn of `task` at `now`; the next one is due `everyMs` later. */
  async take(task: string, now: Date, everyMs: number): Promise<boolean> {
    try {
      const taken = await this.turns.findOneAndUpdate(
        {
          _id: task,
          $or: [
            { next_at: { $lte: now.toISOString() } },
            { next_at: { $gt: new Date(now.getTime() + everyMs).toISOString() } },
          ],
        },
        { $set: { next_at: new Date(now.getTime() + everyMs).toISOString() } },
        { upsert: true },
      );
      return taken !== null;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }
}
