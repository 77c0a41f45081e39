/**
 * Graceful shutdown, end to end: the real `leadstream projector` process consumes a stream of
 * lead events into the analytics engine; SIGTERM arrives mid-stream; a second run drains the
 * rest. Nothing committed may be lost and nothing may be projected twice. A SIGKILL run shows
 * the weaker guarantee of a crash: nothing lost, redeliveries collapsed by event id.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAnalytics } from '@leadstream/engine-clickhouse';
import { openKafkaLog } from '@leadstream/engine-kafka';
import type { EventLog } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { prefixEventLog } from '@leadstream/runtime';
import type { LeadEventMessage } from '@leadstream/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { CliProcess } from './test-support/cli-process';
import { openEmbeddedLogOf } from './engines';

const EVENTS = 30_000;
const PARTITIONS = 3;

interface Setup {
  env: Record<string, string>;
  openLog: () => Promise<EventLog>;
}

const kafka = lookupInfra('KAFKA_BROKERS');

const setups: Array<[string, (dataDir: string) => Setup]> = [
  ['embedded log', (dataDir) => ({ env: { DATA_DIR: dataDir }, openLog: () => openEmbeddedLogOf(dataDir) })],
];
if (kafka.value) {
  const brokers = kafka.value;
  setups.push([
    'kafka',
    (dataDir) => {
      const prefix = `shutdown-${randomUUID().slice(0, 8)}.`;
      return {
        env: { DATA_DIR: dataDir, KAFKA_BROKERS: brokers, TOPIC_PREFIX: prefix },
        openLog: async () =>
          prefixEventLog(await openKafkaLog({ brokers: brokers.split(','), clientId: 'shutdown-test' }), prefix),
      };
    },
  ]);
}

function leadEvent(index: number): LeadEventMessage {
  return {
    schema_version: 1,
    id: `evt_${index.toString().padStart(8, '0')}`,
    event: 'lead.created',
    timestamp: new Date(Date.UTC(2026, 10, 1) + index * 1000).toISOString(),
    organization_id: 'org_shutdown',
    environment: 'live',
    data: { lead: { id: `lead_${index}`, email: `student${index}@example.edu`, vendor_id: 'vendor_1' } },
  };
}

async function produceEvents(log: EventLog): Promise<void> {
  await log.ensureTopics([{ topic: 'leads.events', partitions: PARTITIONS }]);
  for (let start = 0; start < EVENTS; start += 1_000) {
    const records = Array.from({ length: 1_000 }, (_, offset) => {
      const event = leadEvent(start + offset);
      return { key: (event.data['lead'] as { id: string }).id, value: JSON.stringify(event) };
    });
    await log.produce('leads.events', records);
  }
}

async function countProjected(dataDir: string): Promise<{ rows: number; distinct: number }> {
  const analytics = await openAnalytics({ dataDir });
  try {
    const [result] = await analytics.query<{ rows: number; distinct: number }>(
      'SELECT count() AS rows, uniqExact(event_id) AS distinct FROM lead_events',
    );
    return result ?? { rows: 0, distinct: 0 };
  } finally {
    await analytics.close();
  }
}

const baseEnv = {
  LOG_LEVEL: 'debug',
  TOPIC_PARTITIONS: String(PARTITIONS),
  HOST: '127.0.0.1',
  SHUTDOWN_TIMEOUT_MS: '30000',
};
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe.each(setups)('leadstream projector shutdown on the %s', (_name, makeSetup) => {
  it('SIGTERM mid-stream loses nothing committed and projects nothing twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-shutdown-'));
    dirs.push(dataDir);
    const setup = makeSetup(dataDir);
    const log = await setup.openLog();
    await produceEvents(log);
    await log.close();

    const first = CliProcess.start(['projector'], { ...baseEnv, ...setup.env });
    await first.waitFor((line) => line.msg === 'batch projected', 120_000);
    first.kill('SIGTERM');
    const firstExit = await first.exited;
    expect(firstExit, first.errorOutput).toEqual({ code: 0, signal: null });
    expect(first.lines.some((line) => line.msg === 'shutdown complete')).toBe(true);

    const midway = await countProjected(dataDir);
    expect(midway.rows).toBeGreaterThan(0);
    expect(midway.rows).toBeLessThan(EVENTS);
    expect(midway.distinct).toBe(midway.rows);

    const second = CliProcess.start(['projector', '--drain'], { ...baseEnv, ...setup.env });
    const secondExit = await second.exited;
    expect(secondExit, second.errorOutput).toEqual({ code: 0, signal: null });
    expect(second.lines.some((line) => line.msg.startsWith('drained'))).toBe(true);

    expect(await countProjected(dataDir)).toEqual({ rows: EVENTS, distinct: EVENTS });
  }, 300_000);

  it('SIGKILL mid-stream loses nothing: redelivered events collapse by event id', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-kill-'));
    dirs.push(dataDir);
    const setup = makeSetup(dataDir);
    const log = await setup.openLog();
    await produceEvents(log);
    await log.close();

    const first = CliProcess.start(['projector'], { ...baseEnv, ...setup.env });
    await first.waitFor((line) => line.msg === 'batch projected', 120_000);
    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = CliProcess.start(['projector', '--drain'], { ...baseEnv, ...setup.env });
    expect((await second.exited).code, second.errorOutput).toBe(0);

    const final = await countProjected(dataDir);
    expect(final.distinct).toBe(EVENTS);
    expect(final.rows).toBeGreaterThanOrEqual(EVENTS);
  }, 300_000);
});
