/**
 * MaintenanceTurns on both engine pairs' stores: the first turn to one caller, the turn due again
 * after its interval, tasks independent of one another, and a turn set far ahead taken anyway.
 */
import { MaintenanceTurns } from '@leadstream/dal';
import { afterEach, describe, expect, it } from 'vitest';
import { type EnginePair, enginePairs } from '../test-support/engine-pairs';

describe.each(enginePairs('turns'))('MaintenanceTurns on %s', (_name, open) => {
  let pair: EnginePair | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
  });

  it('gives each turn to one caller and the next one after the interval', async () => {
    pair = await open();
    const [a, b] = [new MaintenanceTurns(pair.store), new MaintenanceTurns(pair.store)];
    const t0 = Date.parse('2026-11-28T10:00:00.000Z');
    const at = (ms: number) => new Date(t0 + ms);
    // Several processes asking at once: exactly one gets the first turn.
    const first = await Promise.all([a.take('sweep', at(0), 10_000), b.take('sweep', at(0), 10_000)]);
    expect(first.filter(Boolean)).toHaveLength(1);
    expect(await a.take('sweep', at(9_999), 10_000)).toBe(false);
    expect(await b.take('sweep', at(9_999), 10_000)).toBe(false);
    // Another task has turns of its own.
    expect(await b.take('other', at(9_999), 10_000)).toBe(true);
    expect(await b.take('sweep', at(10_000), 10_000)).toBe(true);
    expect(await a.take('sweep', at(10_000), 10_000)).toBe(false);
    expect(await a.take('sweep', at(20_000), 10_000)).toBe(true);
  });

  it('takes a turn stored more than an interval ahead (a clock that ran ahead), so the task never stops', async () => {
    pair = await open();
    const turns = new MaintenanceTurns(pair.store);
    const t0 = Date.parse('2026-11-28T10:00:00.000Z');
    // A process whose clock was a day ahead took the turn.
    expect(await turns.take('sweep', new Date(t0 + 86_400_000), 10_000)).toBe(true);
    expect(await turns.take('sweep', new Date(t0), 10_000)).toBe(true);
    expect(await turns.take('sweep', new Date(t0 + 5_000), 10_000)).toBe(false);
  });
});
