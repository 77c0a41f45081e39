import type { ProduceRecord, RecordMetadata } from '@leadstream/ports';
import { describe, expect, it } from 'vitest';
import { CoalescingProducer } from './coalescing-producer';

/** A log that records each produce call and numbers the records per topic. */
function recordingLog(fail?: Error) {
  const calls: Array<{ topic: string; records: ProduceRecord[] }> = [];
  const next = new Map<string, number>();
  return {
    calls,
    async produce(topic: string, records: ProduceRecord[]): Promise<RecordMetadata[]> {
      calls.push({ topic, records });
      if (fail) throw fail;
      return records.map(() => {
        const offset = next.get(topic) ?? 0;
        next.set(topic, offset + 1);
        return { topic, partition: 0, offset: String(offset) };
      });
    },
  };
}

/** A scheduler the test fires by hand: "the tick ends" when the test says so. */
function manualTick() {
  const queued: Array<() => void> = [];
  return {
    schedule: (flush: () => void) => queued.push(flush),
    end: () => queued.splice(0).forEach((flush) => flush()),
    pending: () => queued.length,
  };
}

const record = (value: string): ProduceRecord => ({ key: value, value });

describe('CoalescingProducer', () => {
  it('sends every call of one tick as one produce, in call order, and gives each caller its own metadata', async () => {
    const log = recordingLog();
    const tick = manualTick();
    const producer = new CoalescingProducer(log, tick.schedule);
    const first = producer.produce('leads.submitted', [record('a')]);
    const second = producer.produce('leads.submitted', [record('b'), record('c')]);
    const third = producer.produce('leads.submitted', [record('d')]);
    expect(log.calls).toHaveLength(0);
    expect(tick.pending()).toBe(1);
    tick.end();
    expect(await first).toEqual([{ topic: 'leads.submitted', partition: 0, offset: '0' }]);
    expect(await second).toEqual([
      { topic: 'leads.submitted', partition: 0, offset: '1' },
      { topic: 'leads.submitted', partition: 0, offset: '2' },
    ]);
    expect(await third).toEqual([{ topic: 'leads.submitted', partition: 0, offset: '3' }]);
    expect(log.calls).toEqual([{ topic: 'leads.submitted', records: ['a', 'b', 'c', 'd'].map(record) }]);
  });

  it('sends one produce per topic', async () => {
    const log = recordingLog();
    const tick = manualTick();
    const producer = new CoalescingProducer(log, tick.schedule);
    const calls = [
      producer.produce('t1', [record('a')]),
      producer.produce('t2', [record('b')]),
      producer.produce('t1', [record('c')]),
    ];
    tick.end();
    await Promise.all(calls);
    expect(log.calls.map((call) => [call.topic, call.records.map((r) => r.value)])).toEqual([
      ['t1', ['a', 'c']],
      ['t2', ['b']],
    ]);
  });

  it('rejects every caller of the tick with the shared error', async () => {
    const log = recordingLog(new Error('broker not available'));
    const tick = manualTick();
    const producer = new CoalescingProducer(log, tick.schedule);
    const first = producer.produce('t', [record('a')]);
    const second = producer.produce('t', [record('b')]);
    tick.end();
    await expect(first).rejects.toThrow('broker not available');
    await expect(second).rejects.toThrow('broker not available');
    expect(log.calls).toHaveLength(1);
  });

  it('starts a new batch for calls made after the flush', async () => {
    const log = recordingLog();
    const tick = manualTick();
    const producer = new CoalescingProducer(log, tick.schedule);
    const first = producer.produce('t', [record('a')]);
    tick.end();
    const second = producer.produce('t', [record('b')]);
    expect(tick.pending()).toBe(1);
    tick.end();
    expect(await first).toEqual([{ topic: 't', partition: 0, offset: '0' }]);
    expect(await second).toEqual([{ topic: 't', partition: 0, offset: '1' }]);
    expect(log.calls).toHaveLength(2);
  });

  it('with the default scheduler, coalesces calls made in one tick of the real event loop', async () => {
    const log = recordingLog();
    const producer = new CoalescingProducer(log);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => producer.produce('t', [record(String(i))])));
    expect(log.calls).toHaveLength(1);
    expect(results.map((metadata) => metadata[0]?.offset)).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
  });

  it('answers an empty call at once without producing', async () => {
    const log = recordingLog();
    const tick = manualTick();
    const producer = new CoalescingProducer(log, tick.schedule);
    expect(await producer.produce('t', [])).toEqual([]);
    expect(tick.pending()).toBe(0);
  });
});
