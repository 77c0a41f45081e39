/**
 * `leadstream backup` while `leadstream start` runs under load, and `leadstream restore` into a
 * fresh DATA_DIR (apps/leadstream/src/backup.ts): every lead acknowledged before the backup started
 * is found through the API of a service started on the restored directory. Embedded engines only:
 * with MONGODB_URI set the documents are not in DATA_DIR and both commands refuse.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { afterAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';

const CLIENTS = 6;
/** Acknowledged leads before the backup starts. */
const BEFORE_BACKUP = 150;

const dirs: string[] = [];
function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  dirs.push(dir);
  return dir;
}
/** Services this file started: stopped in afterAll too, so a test that times out leaves none running. */
const services: CliProcess[] = [];
afterAll(async () => {
  for (const service of services) {
    if (service.child.exitCode === null && service.child.signalCode === null) service.kill('SIGTERM');
    await service.exited;
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('leadstream backup and restore on the embedded engines', () => {
  it('copies a running service under load; a restore finds every lead acknowledged before the backup', async () => {
    const dataDir = tempDir('backup-source');
    const env = serviceEnv({ DATA_DIR: dataDir, RATE_LIMIT_SCALE: '1000' });
    const cli = (args: string[], extra: Record<string, string> = {}): Promise<string> =>
      CliProcess.output(args, { ...env, ...extra });
    const { server, url } = await CliProcess.startService(env);
    services.push(server);
    let restored: CliProcess | undefined;
    try {
      const organizationId = await cli(['org', 'create', '--name', 'Backup University']);
      const vendorId = await cli([
        'vendor',
        'create',
        '--org',
        organizationId,
        '--name',
        'Inquiry Co',
        '--type',
        'inquiry',
      ]);
      const key = String(
        (
          JSON.parse(
            await cli([
              'key',
              'create',
              '--org',
              organizationId,
              '--vendor',
              vendorId,
              '--json',
              '--rate-limit',
              '100000',
            ]),
          ) as { key: string }
        ).key,
      );

      // Clients stream unique leads through the backup and a while after it.
      const acknowledged: string[] = [];
      let beforeBackup: string[] | undefined;
      let stop = false;
      let sent = 0;
      const run = randomUUID().slice(0, 8);
      const client = async (): Promise<void> => {
        while (!stop) {
          const index = sent++;
          const response = await fetch(`${url}/api/v1/leads/ingest`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              email: `backup.${run}.${index}@example.edu`,
              first_name: 'Ada',
              last_name: `Backup${index}x${run}`,
              form_started_at: new Date(Date.now() - 30_000).toISOString(),
            }),
          });
          const body = (await response.json()) as { lead_id?: string };
          if (response.status >= 200 && response.status < 300 && body.lead_id) acknowledged.push(body.lead_id);
          else throw new Error(`unexpected answer ${response.status}: ${JSON.stringify(body)}`);
        }
      };
      const load = Promise.all(Array.from({ length: CLIENTS }, client));
      const backupFile = join(tempDir('backup-file'), 'leadstream.backup');
      const backup = (async () => {
        while (acknowledged.length < BEFORE_BACKUP) await new Promise((resolve) => setTimeout(resolve, 20));
        beforeBackup = [...acknowledged];
        const summary = JSON.parse(await cli(['backup', '--to', backupFile, '--json'])) as {
          file: string;
          leads: number;
          logRecords: number;
          files: string[];
        };
        const during = acknowledged.length;
        // Keep the load on a little after the backup, so writes ran on both sides of it.
        while (acknowledged.length < during + 30) await new Promise((resolve) => setTimeout(resolve, 20));
        stop = true;
        return summary;
      })();
      const [summary] = await Promise.all([backup, load]);
      expect(summary.file).toBe(backupFile);
      expect(summary.leads).toBeGreaterThan(0);
      expect(summary.logRecords).toBeGreaterThan(0);
      expect(summary.files).toEqual(expect.arrayContaining(['crm-credentials-key', 'jwt-secret']));
      expect(acknowledged.length).toBeGreaterThan(beforeBackup!.length);

      // A second backup to the same file is refused, and the service never noticed any of it.
      const again = CliProcess.start(['backup', '--to', backupFile], env);
      expect((await again.exited).code).toBe(1);
      expect(again.errorOutput).toBe(`leadstream backup: ${backupFile} exists already: choose a new file\n`);
      expect(server.lines.filter((line) => line.level === 'error' || Number(line.level) >= 50)).toEqual([]);

      server.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);

      // Restore refuses a DATA_DIR that holds anything.
      const busy = tempDir('backup-busy');
      writeFileSync(join(busy, 'something'), 'x');
      const refused = CliProcess.start(['restore', '--from', backupFile], { ...env, DATA_DIR: busy });
      expect((await refused.exited).code).toBe(1);
      expect(refused.errorOutput).toMatch(
        /^leadstream restore: DATA_DIR .*backup-busy-\w+ is not empty: restore only into an empty or new directory/,
      );
      expect(readFileSync(join(busy, 'something'), 'utf8')).toBe('x');

      const target = join(tempDir('backup-target'), 'data');
      const restoreSummary = JSON.parse(
        await cli(['restore', '--from', backupFile, '--json'], { DATA_DIR: target }),
      ) as { files: string[]; leads: number };
      expect(restoreSummary.leads).toBe(summary.leads);
      expect(readFileSync(join(target, 'jwt-secret'), 'utf8')).toBe(readFileSync(join(dataDir, 'jwt-secret'), 'utf8'));
      expect(readFileSync(join(target, 'crm-credentials-key'), 'utf8')).toBe(
        readFileSync(join(dataDir, 'crm-credentials-key'), 'utf8'),
      );
      expect(existsSync(join(target, 'store', 'documents.sqlite'))).toBe(true);

      const second = await CliProcess.startService({ ...env, DATA_DIR: target });
      restored = second.server;
      services.push(restored);
      // Every lead acknowledged before the backup started, through the API (a lead still on
      // leads.submitted at the snapshot is decided by the restored pipeline).
      const missing = new Set(beforeBackup);
      const found = new Map<string, unknown>();
      const deadline = Date.now() + 60_000;
      while (missing.size > 0) {
        for (const id of [...missing]) {
          const response = await fetch(`${second.url}/api/leads/${id}/status`, {
            headers: { authorization: `Bearer ${key}` },
          });
          const body = (await response.json()) as { id?: string; status?: string };
          if (response.status === 200 && body.id === id && body.status === 'accepted') {
            missing.delete(id);
            found.set(id, body);
          }
        }
        if (missing.size === 0) break;
        if (Date.now() > deadline)
          throw new Error(
            `${missing.size} of ${beforeBackup!.length} leads acknowledged before the backup are not found after the restore: ${[...missing].slice(0, 5).join(', ')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(found.size).toBe(beforeBackup!.length);
      expect([...found.values()]).toEqual(
        beforeBackup!.map((id) => expect.objectContaining({ id, status: 'accepted' })),
      );
    } finally {
      for (const service of [server, restored]) {
        if (service && service.child.exitCode === null && service.child.signalCode === null) service.kill('SIGTERM');
        await service?.exited;
      }
    }
  }, 300_000);

  it.skipIf(!lookupInfra('MONGODB_URI').value)(
    'refuses with MONGODB_URI set: the documents are not in DATA_DIR',
    async () => {
      const dataDir = tempDir('backup-mongo');
      const command = CliProcess.start(
        ['backup', '--to', join(dataDir, 'x.backup')],
        serviceEnv({ DATA_DIR: dataDir, MONGODB_URI: lookupInfra('MONGODB_URI').value! }),
      );
      expect((await command.exited).code).toBe(1);
      expect(command.errorOutput).toBe(
        "leadstream backup: MONGODB_URI is set: the documents are in MongoDB, not in DATA_DIR; back them up with MongoDB's tools (mongodump)\n",
      );
      expect(existsSync(join(dataDir, 'x.backup'))).toBe(false);
    },
    60_000,
  );
});
