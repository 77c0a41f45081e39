/** Stuck partitions in the logs: one warning when a partition gets stuck, one note when it moves on. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PartitionWatch, type StuckPartitionLogger } from './partition-watch';

function recordingLogger(): StuckPartitionLogger & { lines: Array<{ level: string; obj: Record<string, unknown> }> } {
  const lines: Array<{ level: string; obj: Record<string, unknown> }> = [];
  return {
    lines,
    warn: (obj) => lines.push({ level: 'warn', obj: obj as Record<string, unknown> }),
    info: (obj) => lines.push({ level: 'info', obj: obj as Record<string, unknown> }),
  };
}

describe('stuck partition log', () => {
  it('warns once when a batch stays in hand past the bound, and notes when the partition moves on', () => {
    let now = 1_000_000;
    const watch = new PartitionWatch({ stuckAfterMs: 60_000, clock: () => now });
    const logger = recordingLogger();
    const holder = {};
    watch.begin(holder, 'deliver', 'webhooks.deliveries', 1, '771');
    now += 30_000;
    watch.reportStuck(logger);
    expect(logger.lines).toEqual([]);

    now += 31_000;
    watch.reportStuck(logger);
    now += 15_000;
    watch.reportStuck(logger);
    expect(logger.lines).toEqual([
      {
        level: 'warn',
        obj: {
          code: 'partition_stuck',
          group: 'deliver',
          topic: 'webhooks.deliveries',
          partition: 1,
          offset: '771',
          in_hand_seconds: 61,
          stuck_after_ms: 60_000,
        },
      },
    ]);

    // It fails and is delivered again from the same offset: still the same stuck batch, no new warning.
    watch.fail(holder, 'deliver', 'webhooks.deliveries', 1);
    watch.begin(holder, 'deliver', 'webhooks.deliveries', 1, '771');
    watch.reportStuck(logger);
    expect(logger.lines).toHaveLength(1);

    watch.end(holder, 'deliver', 'webhooks.deliveries', 1);
    watch.reportStuck(logger);
    expect(logger.lines[1]).toEqual({
      level: 'info',
      obj: { code: 'partition_moving', group: 'deliver', topic: 'webhooks.deliveries', partition: 1, offset: '771' },
    });

    // The next batch stuck as long is a new episode: a new warning naming its offset.
    watch.begin(holder, 'deliver', 'webhooks.deliveries', 1, '1271');
    now += 61_000;
    watch.reportStuck(logger);
    expect(logger.lines).toHaveLength(3);
    expect(logger.lines[2]).toMatchObject({ level: 'warn', obj: { code: 'partition_stuck', offset: '1271' } });
  });

  it('keeps groups apart, and a member that stops without failing ends its episode', () => {
    let now = 0;
    const watch = new PartitionWatch({ stuckAfterMs: 10_000, clock: () => now });
    const logger = recordingLogger();
    const notify = {};
    const activity = {};
    watch.begin(notify, 'notify', 'leads.events', 0, '5');
    watch.begin(activity, 'activity', 'leads.events', 0, '9');
    now += 11_000;
    watch.reportStuck(logger);
    expect(logger.lines.map((line) => [line.level, line.obj['group'], line.obj['offset']])).toEqual([
      ['warn', 'notify', '5'],
      ['warn', 'activity', '9'],
    ]);
    // activity's batch failed: its offset stays in hand after the member stops; notify's ends.
    watch.fail(activity, 'activity', 'leads.events', 0);
    watch.release(activity);
    watch.release(notify);
    watch.reportStuck(logger);
    expect(logger.lines.slice(2).map((line) => [line.level, line.obj['code'], line.obj['group']])).toEqual([
      ['info', 'partition_moving', 'notify'],
    ]);
  });

  describe('on a timer', () => {
    afterEach(() => vi.useRealTimers());

    it('reports every quarter of the bound until stopped', () => {
      vi.useFakeTimers();
      let now = 0;
      const watch = new PartitionWatch({ stuckAfterMs: 8_000, clock: () => now });
      const logger = recordingLogger();
      const deliver = {};
      watch.begin(deliver, 'deliver', 'webhooks.deliveries', 0, '1');
      const stop = watch.logStuck(logger);
      now = 9_000;
      vi.advanceTimersByTime(2_000);
      expect(logger.lines.map((line) => line.obj['code'])).toEqual(['partition_stuck']);
      stop();
      // Moving on after the stop is not reported: the timer is gone.
      watch.end(deliver, 'deliver', 'webhooks.deliveries', 0);
      now = 20_000;
      vi.advanceTimersByTime(10_000);
      expect(logger.lines).toHaveLength(1);
    });
  });
});
