/**
 * AnalyticsBatcher.write: acknowledged writes (the projector's), against an engine that records
 * its inserts and can be told to fail. The engine-level behaviour of `add` is in the contract suite.
 */
import type { Analytics } from '@leadstream/ports';
import { describe, expect, it } from 'vitest';
import { AnalyticsBatcher } from './analytics-batcher';

function recordingEngine(): {
  analytics: Analytics;
  inserts: Array<{ table: string; rows: unknown[] }>;
  failNext: (times: number) => void;
} {
  const inserts: Array<{ table: string; rows: unknown[] }> = [];
  let failures = 0;
  const analytics = {
    engine: 'chdb',
    insert: async (table: string, rows: unknown[]) => {
      await Promise.resolve();
      if (failures > 0) {
        failures -= 1;
        throw new Error('insert failed');
      }
      inserts.push({ table, rows });
    },
  } as unknown as Analytics;
  return { analytics, inserts, failNext: (times) => (failures = times) };
}

describe('AnalyticsBatcher.write', () => {
  it('resolves once the rows are inserted, and writes concurrent writes in one insert', async () => {
    const engine = recordingEngine();
    const batcher = new AnalyticsBatcher(engine.analytics, { maxRows: 1_000, maxDelayMs: 0 });
    let firstDone = false;
    const first = batcher.write('lead_events', [{ n: 1 }]).then(() => (firstDone = true));
    const second = batcher.write('lead_events', [{ n: 2 }, { n: 3 }]);
    expect(firstDone).toBe(false);
    await Promise.all([first, second]);
    expect(engine.inserts).toEqual([{ table: 'lead_events', rows: [{ n: 1 }, { n: 2 }, { n: 3 }] }]);
  });

  it('flushes at maxRows without waiting for the delay', async () => {
    const engine = recordingEngine();
    const batcher = new AnalyticsBatcher(engine.analytics, { maxRows: 2, maxDelayMs: 3_600_000 });
    await Promise.all([batcher.write('t', [{ n: 1 }]), batcher.write('t', [{ n: 2 }])]);
    expect(engine.inserts).toEqual([{ table: 't', rows: [{ n: 1 }, { n: 2 }] }]);
  });

  it('rejects every write of a failed insert and keeps none of their rows; rows of add stay for the next flush', async () => {
    const engine = recordingEngine();
    const batcher = new AnalyticsBatcher(engine.analytics, { maxRows: 1_000, maxDelayMs: 3_600_000 });
    await batcher.add('t', [{ kept: true }]);
    engine.failNext(1);
    const written = batcher.write('t', [{ dropped: true }]);
    await expect(batcher.flush()).rejects.toThrow('insert failed');
    await expect(written).rejects.toThrow('insert failed');
    expect(batcher.pending).toBe(1);
    const again = batcher.write('t', [{ again: true }]);
    await batcher.flush();
    await again;
    expect(engine.inserts.flatMap((insert) => insert.rows)).toEqual([{ kept: true }, { again: true }]);
  });

  it('refuses writes once closed', async () => {
    const batcher = new AnalyticsBatcher(recordingEngine().analytics, { maxRows: 10, maxDelayMs: 0 });
    await batcher.close();
    await expect(batcher.write('t', [{ n: 1 }])).rejects.toThrow('closed');
  });
});
