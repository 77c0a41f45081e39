import { describe, expect, it } from 'vitest';
import { type CommandOperation, commandRuns, CommandSlots, sendConcurrently } from './command-runs';

const update = (id: unknown, upsert = false): CommandOperation => ({
  updateOne: { filter: { _id: id, version: 1 }, upsert },
});
const insert = (id: string): CommandOperation => ({ insertOne: { document: { _id: id } } });

/** A send that records how many commands were in flight at once, resolved by the test. */
function recordingSend() {
  let inFlight = 0;
  let most = 0;
  const sent: number[] = [];
  const pending = new Map<number, { resolve: (value: string) => void; reject: (error: Error) => void }>();
  const send = (index: number) =>
    new Promise<string>((resolve, reject) => {
      inFlight++;
      most = Math.max(most, inFlight);
      sent.push(index);
      pending.set(index, {
        resolve: (value) => {
          inFlight--;
          resolve(value);
        },
        reject: (error) => {
          inFlight--;
          reject(error);
        },
      });
    });
  return { send, sent, pending, most: () => most };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** 'resolved', or the message of the error the promise rejects with. */
const outcomeOf = (done: Promise<unknown>): Promise<string> =>
  done.then(
    () => 'resolved',
    (error: Error) => error.message,
  );

describe('commandRuns', () => {
  it('groups updates of distinct documents and keeps everything else alone, in order', () => {
    expect(
      commandRuns([
        insert('a'),
        update('x'),
        update('y'),
        update('z'),
        update('y'), // the same document again: depends on the one before
        update('w', true), // an upsert may insert
        update({ nested: 1 }), // not a plain id
        update('v'),
      ]),
    ).toEqual([
      { start: 0, end: 1, concurrent: false },
      { start: 1, end: 4, concurrent: true },
      { start: 4, end: 5, concurrent: false },
      { start: 5, end: 6, concurrent: false },
      { start: 6, end: 7, concurrent: false },
      { start: 7, end: 8, concurrent: false },
    ]);
  });

  it('runs to the end of the bulk', () => {
    expect(commandRuns([update('a'), update('b')])).toEqual([{ start: 0, end: 2, concurrent: true }]);
    expect(commandRuns([])).toEqual([]);
  });
});

describe('sendConcurrently', () => {
  it('keeps as many commands in flight as the slots allow, and returns every result by index', async () => {
    const slots = new CommandSlots(3);
    const { send, sent, pending, most } = recordingSend();
    const done = sendConcurrently({ start: 2, end: 9, concurrent: true }, slots, true, send);
    await tick();
    expect(sent).toEqual([2, 3, 4]);
    for (let index = 2; index < 9; index++) {
      pending.get(index)!.resolve(`r${index}`);
      await tick();
    }
    const results = await done;
    expect(most()).toBe(3);
    expect([...results.entries()].sort(([a], [b]) => a - b)).toEqual(
      [2, 3, 4, 5, 6, 7, 8].map((index) => [index, `r${index}`]),
    );
  });

  it('shares the slots between runs sent at the same time (the store-wide bound)', async () => {
    const slots = new CommandSlots(2);
    const { send, pending, most } = recordingSend();
    const first = sendConcurrently({ start: 0, end: 3, concurrent: true }, slots, true, send);
    const second = sendConcurrently({ start: 10, end: 13, concurrent: true }, slots, true, send);
    for (let round = 0; round < 10; round++) {
      await tick();
      for (const [index, entry] of pending) {
        pending.delete(index);
        entry.resolve('ok');
      }
    }
    await Promise.all([first, second]);
    expect(most()).toBe(2);
  });

  it('ordered: a failure starts no further command, lets those in flight finish, and is thrown', async () => {
    const slots = new CommandSlots(2);
    const { send, sent, pending } = recordingSend();
    const done = sendConcurrently({ start: 0, end: 6, concurrent: true }, slots, true, send);
    const outcome = outcomeOf(done);
    await tick();
    expect(sent).toEqual([0, 1]);
    pending.get(0)!.reject(new Error('refused'));
    await tick();
    pending.get(1)!.resolve('ok');
    await tick();
    expect(await outcome).toBe('refused');
    expect(sent).toEqual([0, 1]);
  });

  it('ordered: a command waiting for its slot when another fails is never sent', async () => {
    // Another run holds one of the two slots, so this run's second command waits for it.
    const slots = new CommandSlots(2);
    const { send, sent, pending } = recordingSend();
    const other = sendConcurrently({ start: 100, end: 101, concurrent: true }, slots, true, send);
    await tick();
    const done = sendConcurrently({ start: 0, end: 4, concurrent: true }, slots, true, send);
    const outcome = outcomeOf(done);
    await tick();
    expect(sent).toEqual([100, 0]);
    pending.get(0)!.reject(new Error('refused'));
    await tick();
    pending.get(100)!.resolve('ok');
    await other;
    expect(await outcome).toBe('refused');
    expect(sent).toEqual([100, 0]);
  });

  it('throws the failure of the lowest index, whichever came first', async () => {
    const slots = new CommandSlots(3);
    const { send, pending } = recordingSend();
    const done = sendConcurrently({ start: 0, end: 3, concurrent: true }, slots, true, send);
    const outcome = outcomeOf(done);
    await tick();
    pending.get(2)!.reject(new Error('third'));
    await tick();
    pending.get(1)!.reject(new Error('second'));
    pending.get(0)!.resolve('ok');
    expect(await outcome).toBe('second');
  });

  it('unordered: every command is sent, then the first failure is thrown', async () => {
    const slots = new CommandSlots(2);
    const { send, sent, pending } = recordingSend();
    const done = sendConcurrently({ start: 0, end: 4, concurrent: true }, slots, false, send);
    const outcome = outcomeOf(done);
    for (let round = 0; round < 6; round++) {
      await tick();
      for (const [index, entry] of pending) {
        pending.delete(index);
        if (index === 1) entry.reject(new Error('second failed'));
        else entry.resolve('ok');
      }
    }
    expect(await outcome).toBe('second failed');
    expect(sent.sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
  });
});
