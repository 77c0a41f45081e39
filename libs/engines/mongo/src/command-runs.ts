/**
 * How a bulk write goes out where the server takes one write a command (FerretDB 1.24,
 * mongo-store.ts): FerretDB answers every lookup by scanning the collection (its SQL filter
 * `_jsonb->'_id' @> …` has no index to use), so an update costs a scan plus a PostgreSQL commit,
 * tens of milliseconds on a busy machine. A stage's commit of hundreds of compare-and-set updates
 * sent one after the other then took minutes (the deliver stage fell behind for good in the chaos
 * suite, docs/chaos.md). Updates of different documents rarely depend on one another's order (two
 * that swap values under a unique index would), so a run of them is sent a few at a time;
 * everything else keeps its place.
 *
 * Pure logic: the store gives the commands and a send function.
 */

/** A bulk operation as far as this module needs to see it. */
export type CommandOperation =
  | { insertOne: unknown }
  | { updateOne: { filter: Record<string, unknown>; upsert?: boolean } }
  | Record<string, unknown>;

/** Consecutive operations sent together: `concurrent` ones are updates of distinct documents. */
export interface CommandRun {
  start: number;
  end: number;
  concurrent: boolean;
}

/** The document an update without upsert names by `_id` equality, or undefined. */
function updatedId(operation: CommandOperation): string | undefined {
  const update = (operation as { updateOne?: { filter?: Record<string, unknown>; upsert?: boolean } }).updateOne;
  if (!update || update.upsert) return undefined;
  const id = update.filter?.['_id'];
  return typeof id === 'string' ? id : undefined;
}

/**
 * Splits one-operation commands into runs: the longest stretches of updates (no upsert) of
 * distinct `_id`s, which may be sent at once, and every other operation alone. An upsert may
 * insert, an insert may be refused as a duplicate, and two updates of one document depend on their
 * order: those keep the bulk's order.
 */
export function commandRuns(operations: readonly CommandOperation[]): CommandRun[] {
  const runs: CommandRun[] = [];
  let index = 0;
  while (index < operations.length) {
    const seen = new Set<string>();
    let end = index;
    for (let id = updatedId(operations[end]!); id !== undefined && !seen.has(id); id = updatedId(operations[end]!)) {
      seen.add(id);
      end++;
      if (end === operations.length) break;
    }
    if (end - index >= 2) {
      runs.push({ start: index, end, concurrent: true });
      index = end;
    } else {
      runs.push({ start: index, end: index + 1, concurrent: false });
      index++;
    }
  }
  return runs;
}

/** A count of commands a store lets be in flight at once, shared by all its collections. */
export class CommandSlots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  async run<R>(send: () => Promise<R>): Promise<R> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await send();
    } finally {
      // The slot passes straight to the next waiter, or back to the pool.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

/**
 * Sends commands `start` to `end - 1` through the slots, as many at once as they allow. Ordered:
 * a failure starts no further command (those in flight finish, so up to `slots.size - 1` commands
 * after the failing one may be applied) and the failure of the lowest index is thrown. Unordered:
 * every command is sent, and the failure of the lowest index thrown after. Returns the results by index.
 */
export async function sendConcurrently<R>(
  run: CommandRun,
  slots: CommandSlots,
  ordered: boolean,
  send: (index: number) => Promise<R>,
): Promise<Map<number, R>> {
  const results = new Map<number, R>();
  // The failure of the lowest index is the one thrown, as one ordered command would report it.
  let failure: { index: number; error: unknown } | undefined;
  let next = run.start;
  const worker = async (): Promise<void> => {
    while (next < run.end && !(ordered && failure)) {
      const index = next++;
      // A command that waited for its slot while another failed is not sent (ordered); a failure
      // is recorded before its slot passes on, so the next holder sees it.
      await slots.run(async () => {
        if (ordered && failure) return;
        try {
          results.set(index, await send(index));
        } catch (error) {
          if (!failure || index < failure.index) failure = { index, error };
        }
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(slots.size, run.end - run.start) }, worker));
  if (failure) throw failure.error;
  return results;
}
