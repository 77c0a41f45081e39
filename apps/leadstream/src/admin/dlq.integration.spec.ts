/**
 * `leadstream dlq list|replay` as an operator runs them, on each engine set: a dead letter is
 * listed with its reason and source, replayed onto its topic once, and a second replay queues
 * nothing; `--offset` replays only the named dead letters, and `--all` then only the others. On the embedded engines, beside a running server, the command says to stop it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openKafkaLog } from '@leadstream/engine-kafka';
import type { EventLog } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { prefixEventLog } from '@leadstream/runtime';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedLogOf } from '../engines';
import { CliProcess, serviceEnv } from '../test-support/cli-process';

interface Setup {
  env: Record<string, string>;
  openLog: () => Promise<EventLog>;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'leadstream-dlq-'));
  dirs.push(dir);
  return dir;
}

const setups: Array<[string, () => Setup]> = [
  [
    'embedded engines',
    () => {
      const dir = dataDir();
      return { env: { DATA_DIR: dir }, openLog: () => openEmbeddedLogOf(dir) };
    },
  ],
];
const kafka = lookupInfra('KAFKA_BROKERS');
if (kafka.value) {
  const brokers = kafka.value;
  setups.push([
    'Kafka',
    () => {
      const prefix = `dlq-${randomUUID().slice(0, 8)}.`;
      return {
        env: { DATA_DIR: dataDir(), KAFKA_BROKERS: brokers, TOPIC_PREFIX: prefix },
        openLog: async () =>
          prefixEventLog(await openKafkaLog({ brokers: brokers.split(','), clientId: 'dlq-test' }), prefix),
      };
    },
  ]);
}

async function run(setup: Setup, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const command = CliProcess.start(args, { LOG_LEVEL: 'warn', ...setup.env });
  const exit = await command.exited;
  return { code: exit.code, out: command.output.trim(), err: command.errorOutput.trim() };
}

describe.each(setups)('leadstream dlq on the %s', (_name, makeSetup) => {
  it('lists a dead letter, replays it onto its topic once, and a second replay queues nothing', async () => {
    const setup = makeSetup();
    const value = JSON.stringify({ schema_version: 1, message_id: 'msg_poison' });
    const log = await setup.openLog();
    try {
      await log.ensureTopics([
        { topic: 'leads.submitted', partitions: 2 },
        { topic: 'leads.submitted.dlq', partitions: 2 },
      ]);
      await log.produce('leads.submitted.dlq', [
        {
          key: 'live:org:ada@example.edu',
          value,
          headers: {
            'x-dlq-reason': 'lead lead_1 exists already',
            'x-dlq-source': 'leads.submitted/1/42',
            'x-request-id': 'req-1',
          },
        },
      ]);
    } finally {
      await log.close();
    }

    const listed = await run(setup, 'dlq', 'list', '--topic', 'leads.submitted', '--json');
    expect(listed.code, listed.err).toBe(0);
    const body = JSON.parse(listed.out) as { dead_letters: Array<Record<string, unknown>> };
    expect(body.dead_letters).toEqual([
      expect.objectContaining({
        source: 'leads.submitted/1/42',
        reason: 'lead lead_1 exists already',
        key: 'live:org:ada@example.edu',
        value,
      }),
    ]);

    const first = await run(setup, 'dlq', 'replay', '--topic', 'leads.submitted');
    expect(first.code, first.err).toBe(0);
    expect(first.out).toBe('replayed 1 dead letter to leads.submitted');
    const second = await run(setup, 'dlq', 'replay', '--topic', 'leads.submitted');
    expect(second.out).toBe('replayed 0 dead letters to leads.submitted');

    const check = await setup.openLog();
    try {
      const requeued = await readTopic(check, 'leads.submitted');
      expect(requeued).toHaveLength(1);
      expect(requeued[0]).toMatchObject({ key: 'live:org:ada@example.edu', value });
      expect(requeued[0]?.headers).toEqual({
        'x-request-id': 'req-1',
        'x-dlq-replayed-from': expect.stringMatching(/^\d+\/0$/),
      });
    } finally {
      await check.close();
    }
  });

  it('replays only the dead letters named by --offset, each once, and --all the rest', async () => {
    const setup = makeSetup();
    const log = await setup.openLog();
    let first: string;
    let second: string;
    try {
      await log.ensureTopics([
        { topic: 'leads.validated', partitions: 2 },
        { topic: 'leads.validated.dlq', partitions: 2 },
      ]);
      const sent = await log.produce('leads.validated.dlq', [
        {
          key: 'live:org:ada@example.edu',
          value: '{"message_id":"msg_1"}',
          headers: { 'x-dlq-reason': 'boom 1', 'x-dlq-source': 'leads.validated/0/7' },
        },
        {
          key: 'live:org:bob@example.edu',
          value: '{"message_id":"msg_2"}',
          headers: { 'x-dlq-reason': 'boom 2', 'x-dlq-source': 'leads.validated/1/9' },
        },
      ]);
      [first, second] = sent.map((meta) => `${meta.partition}/${meta.offset}`) as [string, string];
    } finally {
      await log.close();
    }

    const one = await run(setup, 'dlq', 'replay', '--topic', 'leads.validated', '--offset', second, '--json');
    expect(one.code, one.err).toBe(0);
    expect(JSON.parse(one.out)).toMatchObject({ replayed: 1, replays: [{ from: second }], replayed_before: [] });

    const listed = await run(setup, 'dlq', 'list', '--topic', 'leads.validated');
    expect(listed.code, listed.err).toBe(0);
    const lines = listed.out.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.find((line) => line.startsWith(`${first}  `))).toMatch(
      /^\d+\/\d+ {2}from leads\.validated\/0\/7 {2}reason: boom 1 {2}key: live:org:ada@example\.edu {2}\{"message_id":"msg_1"\}$/,
    );
    expect(lines.find((line) => line.startsWith(`${second}  `))).toContain('  replayed to ');

    const again = await run(setup, 'dlq', 'replay', '--topic', 'leads.validated', '--offset', second);
    expect(again.code, again.err).toBe(0);
    expect(again.out.split('\n')).toEqual([
      'replayed 0 dead letters to leads.validated',
      `replayed before, not again: ${second}`,
    ]);

    const rest = await run(setup, 'dlq', 'replay', '--topic', 'leads.validated', '--all');
    expect(rest.out).toBe('replayed 1 dead letter to leads.validated');

    const check = await setup.openLog();
    try {
      const requeued = await readTopic(check, 'leads.validated');
      expect(requeued.map((record) => record.headers['x-dlq-replayed-from']).sort()).toEqual([first, second].sort());
      expect(requeued.map((record) => record.value).sort()).toEqual([
        '{"message_id":"msg_1"}',
        '{"message_id":"msg_2"}',
      ]);
    } finally {
      await check.close();
    }

    const unknown = await run(setup, 'dlq', 'replay', '--topic', 'leads.validated', '--offset', '1/999');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe('leadstream dlq replay: no dead letter at 1/999 on leads.validated.dlq (see dlq list)');
    const malformed = await run(setup, 'dlq', 'replay', '--topic', 'leads.validated', '--offset', 'latest');
    expect(malformed.code).toBe(2);
    expect(malformed.err).toBe(
      "leadstream dlq replay: --offset latest: give a dead letter's partition/offset as `dlq list` prints it, e.g. 0/12",
    );
  });

  it('names an unknown topic in one line', async () => {
    const result = await run(makeSetup(), 'dlq', 'list', '--topic', 'no.such.topic');
    expect(result.code).toBe(2);
    expect(result.err).toBe(
      'leadstream dlq list: unknown topic no.such.topic: name a pipeline topic such as leads.submitted',
    );
  });
});

describe('leadstream dlq beside a running server on the embedded engines', () => {
  it('says in one line that the server holds the log, and exits non-zero', async () => {
    const dir = dataDir();
    const server = CliProcess.start(['start'], serviceEnv({ DATA_DIR: dir }));
    try {
      await server.waitFor((line) => line.msg === 'ready', 120_000);
      const result = await run(
        { env: { DATA_DIR: dir }, openLog: () => openEmbeddedLogOf(dir) },
        'dlq',
        'list',
        '--topic',
        'leads.submitted',
      );
      expect(result.code).toBe(1);
      expect(result.err.split('\n')).toEqual([
        'leadstream dlq list: the embedded event log in DATA_DIR belongs to the running leadstream server: stop it first, or run against Kafka (KAFKA_BROKERS).',
      ]);
    } finally {
      server.kill('SIGTERM');
      await server.exited;
    }
  });
});
