/**
 * What `leadstream start` keeps in a fresh DATA_DIR on the embedded engines is private to the user
 * running it: directories 0700, files 0600 (the store's database with its -wal and -shm, the event
 * log's, export files, outbox mails and the generated secrets).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createMailer } from '@leadstream/engine-mail';
import { createLogger, Metrics } from '@leadstream/runtime';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from './config';
import { openEngines } from './engines';
import { resolveCrmCredentialsKey, resolveJwtSecret } from './secrets';

const root = mkdtempSync(join(tmpdir(), 'leadstream-data-dir-modes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

describe('a fresh DATA_DIR', () => {
  it('holds directories 0700 and files 0600', async () => {
    const dataDir = join(root, 'data');
    const config = parseConfig({ DATA_DIR: dataDir });
    const logger = createLogger({ level: 'silent', role: 'test' });
    const engines = await openEngines(config, logger, new Metrics({ defaultMetrics: false }), {
      log: true,
      store: true,
    });
    try {
      await engines.store.collection('leads').insertOne({ _id: 'lead_1', email: 'ada@example.edu' });
      await engines.log.ensureTopics([{ topic: 'leads.events', partitions: 1 }]);
      await engines.log.produce('leads.events', [{ key: 'lead_1', value: '{"email":"ada@example.edu"}' }]);
      await engines.exportFiles.put('export_1', Readable.from(['email\nada@example.edu\n']));
      resolveJwtSecret(config, logger);
      resolveCrmCredentialsKey(config, logger);
      await createMailer({
        smtpUrl: undefined,
        from: 'no-reply@leadstream.test',
        outboxDir: join(dataDir, 'outbox'),
      }).send({ to: 'ada@example.edu', subject: 'Reset', text: 'token' });

      const directories = [
        dataDir,
        join(dataDir, 'store'),
        join(dataDir, 'log'),
        join(dataDir, 'exports'),
        join(dataDir, 'outbox'),
      ];
      const files = [
        join(dataDir, 'store', 'documents.sqlite'),
        join(dataDir, 'store', 'documents.sqlite-wal'),
        join(dataDir, 'store', 'documents.sqlite-shm'),
        join(dataDir, 'log', 'event-log.sqlite'),
        join(dataDir, 'exports', 'export_1.csv'),
        join(dataDir, 'jwt-secret'),
        join(dataDir, 'crm-credentials-key'),
        ...readdirSync(join(dataDir, 'outbox')).map((name) => join(dataDir, 'outbox', name)),
      ];
      expect([...directories, ...files].filter((path) => !existsSync(path))).toEqual([]);
      expect(Object.fromEntries(directories.map((path) => [path, mode(path)]))).toEqual(
        Object.fromEntries(directories.map((path) => [path, '700'])),
      );
      expect(Object.fromEntries(files.map((path) => [path, mode(path)]))).toEqual(
        Object.fromEntries(files.map((path) => [path, '600'])),
      );
    } finally {
      await engines.close();
    }
  });
});
