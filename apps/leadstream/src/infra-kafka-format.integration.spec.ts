/**
 * `infra/kafka/format-storage.sh` formats a KRaft log directory with the cached Kafka jars.
 * CI once failed because a random cluster id began with '-' and Kafka's argument parser read it as
 * an option: the script must accept such an id and must never generate one.
 * Skipped when the jars are not cached yet (no `npm run infra:up`), except under REQUIRE_INFRA=1.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { requireInfra } from '@leadstream/ports/contract/infra';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const script = join(root, 'infra/kafka/format-storage.sh');
const version = /<kafka.version>(.*)<\/kafka.version>/.exec(
  readFileSync(join(root, 'infra/kafka/pom.xml'), 'utf8'),
)?.[1];
const libs = join(
  process.env['LEADSTREAM_CACHE'] ?? join(homedir(), '.cache/leadstream'),
  'kafka',
  version ?? '?',
  'libs',
);
const jarsCached = existsSync(libs);
if (!jarsCached && requireInfra()) throw new Error(`REQUIRE_INFRA=1 but the Kafka jars are not in ${libs}`);

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function format(clusterId?: string): { status: number | null; output: string; meta: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kafka-format-'));
  dirs.push(dir);
  const config = join(dir, 'server.properties');
  writeFileSync(
    config,
    [
      'process.roles=broker,controller',
      'node.id=1',
      'controller.quorum.voters=1@127.0.0.1:1',
      'listeners=PLAINTEXT://127.0.0.1:0,CONTROLLER://127.0.0.1:1',
      'controller.listener.names=CONTROLLER',
      `log.dirs=${join(dir, 'data')}`,
      '',
    ].join('\n'),
  );
  const run = spawnSync('bash', [script, config, ...(clusterId ? [clusterId] : [])], { encoding: 'utf8' });
  const metaFile = join(dir, 'data', 'meta.properties');
  return {
    status: run.status,
    output: run.stdout + run.stderr,
    meta: existsSync(metaFile) ? readFileSync(metaFile, 'utf8') : '',
  };
}

describe.skipIf(!jarsCached)('infra/kafka/format-storage.sh', () => {
  it('formats with a cluster id that starts with a dash', () => {
    const result = format('-lDp6U2idGCI3Uj-8SFIsw');
    expect(result.output).not.toContain('expected one argument');
    expect(result.status).toBe(0);
    expect(result.meta).toMatch(/^cluster\.id=-lDp6U2idGCI3Uj-8SFIsw$/m);
  });

  it('generates a 22-character base64url cluster id that never starts with a dash', () => {
    const result = format();
    expect(result.status).toBe(0);
    const id = /^cluster\.id=(.*)$/m.exec(result.meta)?.[1] ?? '';
    expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
  });
});
