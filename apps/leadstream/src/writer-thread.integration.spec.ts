/**
 * One writer on the embedded engines (docs/pipeline.md "The writer thread"): in `leadstream
 * start` the pipeline thread holds the only read-write connection to the store, and the HTTP
 * thread reads through a read-only one. A write lock held elsewhere (here another connection, as a
 * tool on the same file would) makes a write request wait, and nothing else: the HTTP thread keeps
 * answering reads meanwhile, and the write completes once the lock is free.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { jsonClient } from './test-support/json-client';

const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-writer-'));
let server: CliProcess;
let base: string;

beforeAll(async () => {
  server = CliProcess.start(['start'], serviceEnv({ DATA_DIR: dataDir }));
  const listening = await server.waitFor((line) => line.msg === 'api listening', 120_000);
  await server.waitFor((line) => line.msg === 'ready');
  base = String(listening['url']);
}, 180_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  await server?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

const call = jsonClient(() => base);

describe('the writer thread of leadstream start', () => {
  it('answers reads while a write request waits on a write lock held elsewhere; the write then completes', async () => {
    const registered = await call('POST', '/api/auth/register', {
      email: 'registrar@college.edu',
      password: 'Passw0rd!',
      first_name: 'Reg',
      last_name: 'Istrar',
      organization_name: 'Lock Step College',
    });
    expect(registered.status).toBe(201);
    const owner = String(registered.body['token']);

    const other = new Database(join(dataDir, 'store', 'documents.sqlite'));
    other.pragma('busy_timeout = 10000');
    other.exec('BEGIN IMMEDIATE');
    let released = false;
    try {
      let settled: string | undefined;
      const created = call('POST', '/api/vendors', { name: 'Waiting Forms', type: 'inquiry' }, owner).then(
        (response) => {
          settled = `status ${response.status} ${JSON.stringify(response.body)}`;
          return response;
        },
      );
      // Time for the request to reach the write lock (no clock of the service's decides this).
      await sleep(300);
      const organization = await call('GET', '/api/organization', undefined, owner);
      expect(organization.status).toBe(200);
      expect(organization.body['data']).toMatchObject({ name: 'Lock Step College' });
      const health = await call('GET', '/healthz');
      expect(health.status).toBe(200);
      // Both reads answered while the write still waits for the lock.
      expect(settled).toBeUndefined();

      other.exec('ROLLBACK');
      released = true;
      const response = await created;
      expect(response.status).toBe(201);
      const vendorId = (response.body['data'] as { id: string }).id;
      const vendors = await call('GET', '/api/vendors', undefined, owner);
      expect((vendors.body['data'] as Array<{ id: string; name: string }>).map((vendor) => vendor.id)).toContain(
        vendorId,
      );
    } finally {
      if (!released) other.exec('ROLLBACK');
      other.close();
    }
  });

  it('leaves every commit in the database file after a clean stop (the writer closes last)', async () => {
    const registered = await call('POST', '/api/auth/register', {
      email: 'bursar@college.edu',
      password: 'Passw0rd!',
      first_name: 'Bur',
      last_name: 'Sar',
      organization_name: 'Closing Time College',
    });
    expect(registered.status).toBe(201);
    server.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const file = join(dataDir, 'store', 'documents.sqlite');
    // The last connection to close checkpoints the WAL into the file and removes it.
    const wal = `${file}-wal`;
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    // The database file alone (as a copy of it would be) holds the last write.
    const copy = join(dataDir, 'copy.sqlite');
    copyFileSync(file, copy);
    const db = new Database(copy, { readonly: true });
    try {
      const names = db.prepare(`SELECT json_extract(doc, '$.name') AS name FROM organizations`).pluck().all();
      expect(names).toContain('Closing Time College');
    } finally {
      db.close();
    }
  });
});
