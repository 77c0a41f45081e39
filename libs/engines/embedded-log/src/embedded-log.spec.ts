import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type EventLog, partitionForKey } from '@leadstream/ports';
import { eventLogContract } from '@leadstream/ports/contract/event-log.contract';
import Database from 'better-sqlite3';
import { DataDirLockedError, EmbeddedLog, openEmbeddedLog, type SharedConnection } from './index';
import { DEFERRED_COMMIT_MS, HAND_OFF_MS } from './embedded-log';
import { LogStore, SHARED_TABLES } from './log-store';

const engineEntry = fileURLToPath(new URL('./index.ts', import.meta.url));

/** Runs a TypeScript ES module in a new Node process (through tsx), as another process of the app would. */
function runScript(dir: string, name: string, source: string): SpawnSyncReturns<string> {
  const file = join(dir, `${name}.mts`);
  writeFileSync(file, source);
  return spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 30_000 });
}

/** Polls until `check` holds; fails naming what did not happen within 10 s. */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-log-'));
  dirs.push(dir);
  return dir;
}

eventLogContract('embedded', async () => {
  const dataDir = tempDir();
  let log: EventLog = await openEmbeddedLog({ dataDir });
  return {
    log,
    reopen: async () => {
      await log.close();
      log = await openEmbeddedLog({ dataDir });
      return log;
    },
    cleanup: async () => {
      await log.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

describe('embedded event log', () => {
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged record and committed offset across a close and reopen', async () => {
    const dataDir = tempDir();
    const log = await openEmbeddedLog({ dataDir });
    await log.ensureTopics([
      { topic: 'leads.submitted', partitions: 4 },
      { topic: 'webhooks.retry.1m', partitions: 2, delayMs: 60_000 },
    ]);
    const acknowledged = [];
    for (let call = 0; call < 5; call++) {
      const records = Array.from({ length: 100 }, (_, i) => ({
        key: `lead-${call}-${i}`,
        value: `v${call}-${i}`,
        headers: { n: String(i) },
      }));
      acknowledged.push(
        ...(await log.produce('leads.submitted', records)).map((m, i) => ({ ...m, value: records[i]!.value })),
      );
    }
    // Commit some offsets through a real consumer: a group that stops after the first batches.
    const consumer = log.consumer({ groupId: 'validate', topics: ['leads.submitted'], maxBatchSize: 50 });
    let handled = 0;
    await consumer.start(async (batch) => {
      handled += batch.records.length;
    });
    await until('handled >= 500', () => handled >= 500);
    await consumer.stop();
    await log.close();

    const reopened = await openEmbeddedLog({ dataDir });
    expect(await reopened.partitionCount('leads.submitted')).toBe(4);
    expect(await reopened.partitionCount('webhooks.retry.1m')).toBe(2);
    const seen = new Map<string, string>();
    const replay = reopened.consumer({ groupId: 'audit', topics: ['leads.submitted'] });
    await replay.start(async (batch) => {
      for (const r of batch.records) seen.set(`${r.partition}:${r.offset}`, r.value);
    });
    await until('seen.size >= acknowledged.length', () => seen.size >= acknowledged.length);
    for (const m of acknowledged) expect(seen.get(`${m.partition}:${m.offset}`)).toBe(m.value);
    expect(seen.size).toBe(acknowledged.length);

    // The group that committed everything has no lag and gets nothing again.
    const resumed = reopened.consumer({ groupId: 'validate', topics: ['leads.submitted'] });
    let redelivered = 0;
    await resumed.start(async (batch) => {
      redelivered += batch.records.length;
    });
    expect((await resumed.lag()).map((l) => l.lag)).toEqual([0, 0, 0, 0]);
    await reopened.produce('leads.submitted', [{ key: 'late', value: 'late' }]);
    expect((await resumed.lag()).reduce((sum, l) => sum + l.lag, 0)).toBe(1);
    await until('redelivered >= 1', () => redelivered >= 1);
    await reopened.close();
    expect(redelivered).toBe(1);
  });

  it('keeps every acknowledged record and committed offset when the process is killed (SIGKILL)', async () => {
    const dataDir = tempDir();
    // The child commits the first half through a consumer, then produces the second half, prints
    // each acknowledgement, and dies right after the last one without closing anything.
    const child = runScript(
      dataDir,
      'killed-producer',
      `import { openEmbeddedLog } from ${JSON.stringify(engineEntry)};
      import { openSync, writeSync } from 'node:fs';
      // Written with a synchronous write, so every line is in the OS before the kill.
      const out = openSync(${JSON.stringify(join(dataDir, 'acks.txt'))}, 'w');
      const print = (line) => writeSync(out, line + '\\n');
      const log = await openEmbeddedLog({ dataDir: ${JSON.stringify(dataDir)} });
      await log.ensureTopics([{ topic: 'leads.events', partitions: 3 }]);
      const produce = async (from, to) => {
        for (let call = from; call < to; call++) {
          const records = Array.from({ length: 50 }, (_, i) => ({ key: 'k' + (i % 7), value: call + '-' + i }));
          const metadata = await log.produce('leads.events', records);
          metadata.forEach((m, i) => print('ack ' + m.partition + ' ' + m.offset + ' ' + records[i].value));
        }
      };
      await produce(0, 10);
      const consumer = log.consumer({ groupId: 'project', topics: ['leads.events'], maxBatchSize: 64 });
      let handled = 0;
      await consumer.start(async (batch) => { handled += batch.records.length; });
      while (handled < 500) await new Promise((resolve) => setTimeout(resolve, 5));
      await consumer.stop();
      print('committed');
      await produce(10, 20);
      process.kill(process.pid, 'SIGKILL');`,
    );
    expect(child.stderr).toBe('');
    expect(child.signal).toBe('SIGKILL');
    const lines = readFileSync(join(dataDir, 'acks.txt'), 'utf8').trim().split('\n');
    expect(lines[500]).toBe('committed');
    const acknowledged = lines.filter((l) => l.startsWith('ack ')).map((l) => l.split(' '));
    expect(acknowledged).toHaveLength(1000);

    const reopened = await openEmbeddedLog({ dataDir });
    const seen = new Map<string, string>();
    const audit = reopened.consumer({ groupId: 'audit', topics: ['leads.events'] });
    await audit.start(async (batch) => {
      for (const r of batch.records) seen.set(`${r.partition} ${r.offset}`, r.value);
    });
    await until('seen.size >= 1000', () => seen.size >= 1000);
    for (const [, partition, offset, value] of acknowledged) expect(seen.get(`${partition} ${offset}`)).toBe(value);
    expect(seen.size).toBe(1000);
    // The group resumes after its commit: it gets exactly the second half.
    const project = reopened.consumer({ groupId: 'project', topics: ['leads.events'] });
    expect(await project.lag()).toEqual([]);
    const resumed: string[] = [];
    await project.start(async (batch) => {
      resumed.push(...batch.records.map((r) => r.value));
    });
    await until('resumed.length >= 500', () => resumed.length >= 500);
    expect(new Set(resumed)).toEqual(new Set(acknowledged.slice(500).map(([, , , value]) => value)));
    await reopened.close();
  });

  it('refuses a second process on the same data dir with a clear message', async () => {
    const dataDir = tempDir();
    const log = await openEmbeddedLog({ dataDir });
    const other = runScript(
      dataDir,
      'second-process',
      `import { openEmbeddedLog } from ${JSON.stringify(engineEntry)};
      try {
        await openEmbeddedLog({ dataDir: ${JSON.stringify(dataDir)} });
        console.log('opened');
      } catch (error) {
        console.log(error.code + ': ' + error.message);
      }`,
    );
    expect(other.stderr).toBe('');
    expect(other.stdout).toContain(
      `DATA_DIR_LOCKED: the embedded event log in ${dataDir} is in use by another process (pid ${process.pid})`,
    );
    // The same process opening the dir twice is refused the same way.
    await expect(openEmbeddedLog({ dataDir })).rejects.toThrow(DataDirLockedError);
    await log.close();
    const again = await openEmbeddedLog({ dataDir });
    await again.close();
  });

  it('keeps its directory (0700) and files (0600: the database, its -wal, the LOCK) private, also when an earlier version made them readable', async () => {
    const dataDir = join(tempDir(), 'log');
    const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);
    const file = join(dataDir, 'event-log.sqlite');
    // EXCLUSIVE locking mode: SQLite keeps the WAL index in memory, so there is no -shm file.
    const files = [dataDir, file, `${file}-wal`, join(dataDir, 'LOCK')];
    const log = await openEmbeddedLog({ dataDir });
    await log.ensureTopics([{ topic: 'leads.events', partitions: 1 }]);
    await log.produce('leads.events', [{ key: 'lead_1', value: '{"email":"ada@example.edu"}' }]);
    expect(files.every((path) => existsSync(path))).toBe(true);
    expect(files.map(mode)).toEqual(['700', '600', '600', '600']);
    await log.close();
    chmodSync(dataDir, 0o755);
    chmodSync(file, 0o644);
    const reopened = await openEmbeddedLog({ dataDir });
    expect(files.map(mode)).toEqual(['700', '600', '600', '600']);
    await reopened.close();
  });

  it('does not hand a partition to a new member while the old member has a batch of it in flight', async () => {
    const log = await openEmbeddedLog({ dataDir: tempDir() });
    await log.ensureTopics([{ topic: 't', partitions: 2 }]);
    // Two records on partition 1, which moves from a to b when b joins.
    const key = ['a', 'b', 'c', 'd', 'e'].find((k) => partitionForKey(k, 2) === 1)!;
    await log.produce('t', [
      { key, value: '1' },
      { key, value: '2' },
    ]);
    const events: string[] = [];
    let releaseFirst!: () => void;
    const firstBlocked = new Promise<void>((resolve) => (releaseFirst = resolve));
    let entered!: () => void;
    const aEntered = new Promise<void>((resolve) => (entered = resolve));
    const a = log.consumer({ groupId: 'g', topics: ['t'], maxBatchSize: 1 });
    await a.start(async (batch) => {
      events.push(`a:${batch.records[0]!.value}:start`);
      entered();
      await firstBlocked;
      events.push(`a:${batch.records[0]!.value}:end`);
    });
    await aEntered;
    const b = log.consumer({ groupId: 'g', topics: ['t'], maxBatchSize: 1 });
    await b.start(async (batch) => {
      events.push(`b:${batch.records[0]!.value}`);
    });
    expect(b.assignment()).toEqual([{ topic: 't', partitions: [1] }]);
    // b owns partition 1 now but must wait: give it every chance to (wrongly) take the record.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(['a:1:start']);
    releaseFirst();
    await until('b to take the partition', () => events.length >= 3);
    // a's batch was committed, so b starts after it.
    expect(events).toEqual(['a:1:start', 'a:1:end', 'b:2']);
    await log.close();
  });
});

/** The store's side of a shared connection, as the embedded document store provides it. */
function sharedConnection(file: string): SharedConnection & { close(): void } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  return {
    db,
    transaction: <R>(work: () => R): R =>
      db.inTransaction ? db.transaction(work)() : db.transaction(work).immediate(),
    close: () => db.close(),
  };
}

/** The port's contract on a log that shares a connection, as the document store lends it. */
function sharedConnectionContract(name: string, handOff?: (topic: string) => boolean): void {
  eventLogContract(name, async () => {
    const dataDir = tempDir();
    let shared = sharedConnection(join(dataDir, 'documents.sqlite'));
    const open = (): Promise<EventLog> => openEmbeddedLog({ dataDir, shared, ...(handOff ? { handOff } : {}) });
    let log = await open();
    return {
      log,
      reopen: async () => {
        await log.close();
        shared.close();
        shared = sharedConnection(join(dataDir, 'documents.sqlite'));
        log = await open();
        return log;
      },
      cleanup: async () => {
        await log.close();
        shared.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  });
}

sharedConnectionContract('embedded, sharing the document store connection');
// Every record handed to the consumers before it is written (what `leadstream start` does with
// leads.submitted): the log must keep every promise of the port all the same.
sharedConnectionContract('embedded, sharing the connection, every topic handed off', () => true);

describe('embedded event log on a shared connection', () => {
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('commits records and offsets with the caller transaction, and forgets them when it rolls back', async () => {
    const dataDir = tempDir();
    const shared = sharedConnection(join(dataDir, 'documents.sqlite'));
    const log = EmbeddedLog.open({ dataDir, shared });
    try {
      await log.ensureTopics([{ topic: 't', partitions: 1 }]);
      shared.db.exec('CREATE TABLE docs (id TEXT PRIMARY KEY)');
      const rolledBack = log.beginTransaction();
      expect(() =>
        shared.transaction(() => {
          shared.db.prepare('INSERT INTO docs VALUES (?)').run('lost');
          rolledBack.produce('t', [{ key: 'k', value: 'lost' }]);
          rolledBack.commitOffset('g', 't', 0, 1);
          throw new Error('the batch failed');
        }),
      ).toThrow('the batch failed');
      const committed = log.beginTransaction();
      shared.transaction(() => {
        shared.db.prepare('INSERT INTO docs VALUES (?)').run('kept');
        committed.produce('t', [{ key: 'k', value: 'kept' }]);
        committed.commitOffset('g', 't', 0, 7);
      });
      committed.published();
      expect(shared.db.prepare('SELECT id FROM docs').pluck().all()).toEqual(['kept']);
      expect(log.read('t', 0, 0, 10).map((record) => [record.offset, record.value])).toEqual([['0', 'kept']]);
      expect(log.committed('g', 't', 0)).toBe(7);
    } finally {
      await log.close();
      shared.close();
    }
  });

  it('moves a log kept in its own file into the shared database once, records and offsets included', async () => {
    const dataDir = tempDir();
    const before = await openEmbeddedLog({ dataDir });
    await before.ensureTopics([{ topic: 't', partitions: 2 }]);
    await before.produce('t', [
      { key: 'a', value: '1' },
      { key: 'b', value: '2' },
      { key: 'a', value: '3' },
    ]);
    const consumer = before.consumer({ groupId: 'g', topics: ['t'] });
    const seen: string[] = [];
    await consumer.start(async (batch) => {
      seen.push(...batch.records.map((record) => record.value));
    });
    await until('the three records are consumed', () => seen.length === 3);
    await before.close();

    const shared = sharedConnection(join(dataDir, 'documents.sqlite'));
    const after = EmbeddedLog.open({ dataDir, shared });
    try {
      expect(await after.partitionCount('t')).toBe(2);
      const values = [0, 1].flatMap((partition) => after.read('t', partition, 0, 10).map((record) => record.value));
      expect(values.sort()).toEqual(['1', '2', '3']);
      const used = [0, 1].filter((partition) => after.endOffset('t', partition) > 0);
      expect(used.length).toBeGreaterThan(0);
      for (const partition of used) expect(after.committed('g', 't', partition)).toBe(after.endOffset('t', partition));
      await after.produce('t', [{ key: 'a', value: '4' }]);
      // Offsets continue after the moved records: key a's partition reads 1, 3, 4 in order, at 0, 1, 2, ...
      const partitionOfA = after.read('t', partitionForKey('a', 2), 0, 10);
      expect(partitionOfA.filter((record) => record.key === 'a').map((record) => record.value)).toEqual([
        '1',
        '3',
        '4',
      ]);
      expect(partitionOfA.map((record) => record.offset)).toEqual(partitionOfA.map((_, index) => String(index)));
    } finally {
      await after.close();
      shared.close();
    }
    // Opened again: nothing is moved twice.
    const shared2 = sharedConnection(join(dataDir, 'documents.sqlite'));
    const again = EmbeddedLog.open({ dataDir, shared: shared2 });
    try {
      const partitionOfA = partitionForKey('a', 2);
      expect(
        again
          .read('t', partitionOfA, 0, 10)
          .filter((record) => record.key === 'a')
          .map((record) => record.value),
      ).toEqual(['1', '3', '4']);
      expect([0, 1].flatMap((partition) => again.read('t', partition, 0, 10)).length).toBe(4);
    } finally {
      await again.close();
      shared2.close();
    }
  });
});

describe('deferred offsets (batches that wrote nothing)', () => {
  afterEach(() => {
    vi.useRealTimers();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Runs `work` with a log on a shared connection (topic `t`, one partition) and `stored`: what
   * another connection (a restarted process) reads as a group's stored offset. Closes all after.
   */
  async function withLog(
    work: (context: {
      log: EmbeddedLog;
      shared: SharedConnection;
      stored: (group: string) => number | undefined;
    }) => Promise<void> | void,
  ): Promise<void> {
    const dataDir = tempDir();
    const file = join(dataDir, 'documents.sqlite');
    const shared = sharedConnection(file);
    const log = EmbeddedLog.open({ dataDir, shared });
    const reader = new Database(file, { readonly: true });
    const store = new LogStore(reader, SHARED_TABLES);
    try {
      await log.ensureTopics([{ topic: 't', partitions: 1 }]);
      await work({ log, shared, stored: (group) => store.committed(group, 't', 0) });
    } finally {
      await log.close();
      reader.close();
      shared.close();
    }
  }

  it('reads on from a deferred offset at once, and stores it with the next transaction on the connection', async () => {
    await withLog(async ({ log, shared, stored }) => {
      await log.produce('t', [{ key: 'k', value: '1' }]);
      log.commitDeferred('quiet', 't', 0, 1);
      expect(log.committed('quiet', 't', 0)).toBe(1); // what a member of the group starts from
      expect(stored('quiet')).toBeUndefined(); // not written yet: a crash now reads the record again
      // A batch of another group commits: the deferred offset rides on its transaction.
      const transaction = log.beginTransaction();
      shared.transaction(() => transaction.commitOffset('busy', 't', 0, 1));
      transaction.published();
      expect([stored('quiet'), stored('busy')]).toEqual([1, 1]);
    });
  });

  it('never lets a deferred offset overwrite a later commit of the same group', async () => {
    await withLog(async ({ log, shared, stored }) => {
      log.commitDeferred('g', 't', 0, 5);
      const transaction = log.beginTransaction();
      shared.transaction(() => transaction.commitOffset('g', 't', 0, 7));
      transaction.published();
      expect(stored('g')).toBe(7);
      expect(log.committed('g', 't', 0)).toBe(7);
    });
  });

  it('drops a deferred offset that a plain commit of the group has passed, instead of writing it back', async () => {
    await withLog(async ({ log, stored }) => {
      log.commitDeferred('g', 't', 0, 5);
      log.commit('g', 't', 0, 9);
      await log.produce('t', [{ key: 'k', value: 'next' }]);
      expect(stored('g')).toBe(9);
      expect(log.committed('g', 't', 0)).toBe(9);
    });
  });

  it('keeps a deferred offset deferred when the transaction that carried it rolls back', async () => {
    await withLog(async ({ log, shared, stored }) => {
      log.commitDeferred('g', 't', 0, 3);
      const failed = log.beginTransaction();
      expect(() =>
        shared.transaction(() => {
          failed.produce('t', [{ key: 'k', value: 'lost' }]);
          throw new Error('the batch failed');
        }),
      ).toThrow('the batch failed');
      expect(stored('g')).toBeUndefined();
      await log.produce('t', [{ key: 'k', value: 'kept' }]);
      expect(stored('g')).toBe(3);
    });
  });

  it('writes a deferred offset on its own once nothing else commits for a while', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await withLog(async ({ log, stored }) => {
      log.commitDeferred('g', 't', 0, 2);
      vi.advanceTimersByTime(DEFERRED_COMMIT_MS - 1);
      expect(stored('g')).toBeUndefined();
      vi.advanceTimersByTime(1);
      expect(stored('g')).toBe(2);
    });
  });

  it('writes deferred offsets when it closes', async () => {
    await withLog(async ({ log, stored }) => {
      log.commitDeferred('g', 't', 0, 4);
      await log.close();
      expect(stored('g')).toBe(4);
    });
  });
});

describe('records handed off to a consumer of this process', () => {
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A log on a shared connection that hands off topic `t` (one partition), a count of the
   * transactions on that connection, and `stored`: the records another connection (a restarted
   * process) reads, with the offset stored for a group.
   */
  async function withHandOff(
    work: (context: {
      log: EmbeddedLog;
      shared: SharedConnection;
      transactions: () => number;
      /** While on, every transaction on the shared connection fails as SQLite does on a full disk. */
      failWrites: (on: boolean) => void;
      stored: () => string[];
      storedOffset: (group: string) => number | undefined;
    }) => Promise<void>,
  ): Promise<void> {
    const dataDir = tempDir();
    const file = join(dataDir, 'documents.sqlite');
    const connection = sharedConnection(file);
    let transactions = 0;
    let failing = false;
    const shared: SharedConnection = {
      db: connection.db,
      transaction: (work) => {
        if (failing) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
        if (!connection.db.inTransaction) transactions += 1;
        return connection.transaction(work);
      },
    };
    const log = EmbeddedLog.open({ dataDir, shared, handOff: (topic) => topic === 't' });
    const reader = new Database(file, { readonly: true });
    const store = new LogStore(reader, SHARED_TABLES);
    try {
      await log.ensureTopics([
        { topic: 't', partitions: 1 },
        { topic: 'out', partitions: 1 },
      ]);
      transactions = 0;
      await work({
        log,
        shared,
        transactions: () => transactions,
        failWrites: (on) => (failing = on),
        stored: () => store.read('t', 0, 0, 100).map((row) => `${row.log_offset}:${row.value}`),
        storedOffset: (group) => store.committed(group, 't', 0),
      });
    } finally {
      await log.close();
      reader.close();
      connection.close();
    }
  }

  /** A consumer of `t` that holds each batch until the test releases it. */
  async function holdingConsumer(log: EmbeddedLog, group = 'g') {
    const batches: Array<{ values: string[]; release: () => void }> = [];
    const consumer = log.consumer({ groupId: group, topics: ['t'] });
    await consumer.start(
      (batch) =>
        new Promise<void>((resolve) =>
          batches.push({ values: batch.records.map((r) => `${r.offset}:${r.value}`), release: resolve }),
        ),
    );
    return { consumer, batches };
  }

  it('hands them to the consumer at once and writes them with the transaction of its batch, resolving produce then', async () => {
    await withHandOff(async ({ log, shared, transactions, stored, storedOffset }) => {
      await log.produce('t', [{ key: 'k', value: 'written' }]); // no consumer yet: written on its own
      expect([transactions(), stored()]).toEqual([1, ['0:written']]);
      const { consumer, batches } = await holdingConsumer(log);
      await until('the first batch', () => batches.length === 1);
      batches[0]!.release();
      await until('the first commit', () => storedOffset('g') === 1);
      const before = transactions();

      let acknowledged = false;
      const produced = log.produce('t', [{ key: 'k', value: 'handed' }]).then((metadata) => {
        acknowledged = true;
        return metadata;
      });
      await until('the handed-off batch', () => batches.length === 2);
      expect(batches[1]!.values).toEqual(['1:handed']);
      expect(stored()).toEqual(['0:written']); // not written yet
      expect(acknowledged).toBe(false);
      // The batch's own transaction (a stage's outputs and its offset) writes the record too.
      const transaction = log.beginTransaction();
      shared.transaction(() => {
        transaction.produce('out', [{ key: 'k', value: 'decided' }]);
        transaction.commitOffset('g', 't', 0, 2);
      });
      transaction.published();
      expect(await produced).toEqual([{ topic: 't', partition: 0, offset: '1' }]);
      expect(stored()).toEqual(['0:written', '1:handed']);
      expect(storedOffset('g')).toBe(2);
      batches[1]!.release();
      await consumer.stop();
      expect(transactions() - before).toBe(1); // one commit for the record, the output and the offset
    });
  });

  it('keeps them handed off when the transaction that carried them rolls back', async () => {
    await withHandOff(async ({ log, shared, stored }) => {
      const { consumer, batches } = await holdingConsumer(log);
      const produced = log.produce('t', [{ key: 'k', value: 'a' }]);
      await until('the batch', () => batches.length === 1);
      const failed = log.beginTransaction();
      expect(() =>
        shared.transaction(() => {
          failed.commitOffset('g', 't', 0, 1);
          throw new Error('the batch failed');
        }),
      ).toThrow('the batch failed');
      expect(stored()).toEqual([]);
      expect(log.read('t', 0, 0, 10).map((r) => r.value)).toEqual(['a']); // still there for the consumer
      const retried = log.beginTransaction();
      shared.transaction(() => retried.commitOffset('g', 't', 0, 1));
      retried.published();
      expect(await produced).toEqual([{ topic: 't', partition: 0, offset: '0' }]);
      expect(stored()).toEqual(['0:a']);
      batches[0]!.release();
      await consumer.stop();
    });
  });

  it('gives the records a transaction produces to the same partition the offsets after them', async () => {
    await withHandOff(async ({ log, shared, stored }) => {
      const { consumer, batches } = await holdingConsumer(log);
      const produced = log.produce('t', [
        { key: 'k', value: 'first' },
        { key: 'k', value: 'second' },
      ]);
      await until('the batch', () => batches.length === 1);
      expect(stored()).toEqual([]);
      const transaction = log.beginTransaction();
      const own = shared.transaction(() => transaction.produce('t', [{ key: 'k', value: 'third' }]));
      transaction.published();
      expect(own).toEqual([{ topic: 't', partition: 0, offset: '2' }]);
      expect((await produced).map((m) => m.offset)).toEqual(['0', '1']);
      expect(stored()).toEqual(['0:first', '1:second', '2:third']);
      batches[0]!.release();
      await consumer.stop();
    });
  });

  it('reads written records and handed-off ones as one partition, from any offset and up to the limit', async () => {
    await withHandOff(async ({ log, stored }) => {
      await log.produce('t', [
        { key: 'k', value: 'w0' },
        { key: 'k', value: 'w1' },
      ]);
      const { consumer, batches } = await holdingConsumer(log, 'other');
      void log.produce('t', [
        { key: 'k', value: 'h2' },
        { key: 'k', value: 'h3' },
      ]);
      expect(stored()).toEqual(['0:w0', '1:w1']); // the other two are handed off, not written
      const values = (from: number, limit: number): string[] => log.read('t', 0, from, limit).map((r) => r.value);
      expect(values(0, 10)).toEqual(['w0', 'w1', 'h2', 'h3']);
      expect(values(1, 2)).toEqual(['w1', 'h2']);
      expect(values(3, 10)).toEqual(['h3']);
      expect(values(4, 10)).toEqual([]);
      for (const batch of batches) batch.release();
      await consumer.stop();
    });
  });

  it('writes them on their own when no transaction takes them within HAND_OFF_MS', async () => {
    await withHandOff(async ({ log, transactions, stored, storedOffset }) => {
      const { consumer, batches } = await holdingConsumer(log);
      const start = transactions();
      const produced = log.produce('t', [{ key: 'k', value: 'slow batch' }]);
      await until('the batch', () => batches.length === 1);
      // The consumer holds its batch: the timer writes the record, and only the record.
      expect(await produced).toEqual([{ topic: 't', partition: 0, offset: '0' }]);
      expect([stored(), storedOffset('g'), transactions() - start]).toEqual([['0:slow batch'], undefined, 1]);
      expect(HAND_OFF_MS).toBeLessThanOrEqual(100);
      batches[0]!.release();
      await consumer.stop();
    });
  });

  it('refuses a call with a record it could not write before any of its records takes an offset', async () => {
    await withHandOff(async ({ log, stored }) => {
      const { consumer, batches } = await holdingConsumer(log);
      const bad = [
        { key: 'k', value: 'fine' },
        { key: 'k', value: 42 as unknown as string },
      ];
      await expect(log.produce('t', bad)).rejects.toThrow('must be a string');
      expect(log.read('t', 0, 0, 10)).toEqual([]);
      expect(await log.produce('t', [{ key: 'k', value: 'next' }])).toEqual([
        { topic: 't', partition: 0, offset: '0' },
      ]);
      expect(stored()).toEqual(['0:next']);
      for (const batch of batches) batch.release();
      await consumer.stop();
    });
  });

  it('writes each call on its own while no running consumer of this process reads the topic', async () => {
    await withHandOff(async ({ log, transactions, stored }) => {
      await log.produce('t', [{ key: 'k', value: 'a' }]);
      await log.produce('t', [{ key: 'k', value: 'b' }]);
      expect([transactions(), stored()]).toEqual([2, ['0:a', '1:b']]);
    });
  });

  it('fails the calls whose records the failed write was to carry, and writes each call on its own until a write succeeds', async () => {
    await withHandOff(async ({ log, failWrites, stored }) => {
      const { consumer, batches } = await holdingConsumer(log);
      failWrites(true);
      const handed = log.produce('t', [{ key: 'k', value: 'a' }]);
      await until('the batch', () => batches.length === 1); // handed off: the consumer holds it
      // No transaction can carry it: the write of its own fails, and so does the call, at once.
      await expect(handed).rejects.toThrow('database or disk is full');
      // Until a write succeeds, a call writes its own records, so it fails without waiting.
      await expect(log.produce('t', [{ key: 'k', value: 'b' }])).rejects.toThrow('database or disk is full');
      expect(stored()).toEqual([]);
      failWrites(false);
      // The next write that succeeds writes the handed-off record first, at the offset the consumer has.
      expect(await log.produce('t', [{ key: 'k', value: 'c' }])).toEqual([{ topic: 't', partition: 0, offset: '1' }]);
      expect(stored()).toEqual(['0:a', '1:c']);
      expect(batches[0]!.values).toEqual(['0:a']);
      // Writes succeed again: the next call is handed off again (not written by the call itself).
      const next = log.produce('t', [{ key: 'k', value: 'd' }]);
      expect(stored()).toEqual(['0:a', '1:c']);
      batches[0]!.release();
      await until('the second batch', () => batches.length === 2);
      expect(batches[1]!.values).toEqual(['1:c', '2:d']);
      batches[1]!.release();
      expect(await next).toEqual([{ topic: 't', partition: 0, offset: '2' }]);
      expect(stored()).toEqual(['0:a', '1:c', '2:d']);
      await consumer.stop();
    });
  });

  it('keeps writing each call on its own after a failed write until a transaction that wrote something succeeds', async () => {
    await withHandOff(async ({ log, failWrites, stored }) => {
      const { consumer, batches } = await holdingConsumer(log);
      failWrites(true);
      const handed = log.produce('t', [{ key: 'k', value: 'a' }]);
      await until('the batch', () => batches.length === 1);
      await expect(handed).rejects.toThrow('database or disk is full');
      // A transaction that wrote nothing (a batch without outputs) commits even on a full disk and
      // proves nothing: the next call still writes its own records, so it fails at once (within
      // this tick's promise jobs) instead of being handed off to wait for a write that fails later.
      log.beginTransaction().published();
      let refusal: unknown;
      log.produce('t', [{ key: 'k', value: 'b' }]).catch((error: unknown) => (refusal = error));
      for (let i = 0; i < 5; i++) await Promise.resolve();
      failWrites(false);
      batches[0]!.release();
      expect(String(refusal)).toContain('database or disk is full');
      expect(await log.produce('t', [{ key: 'k', value: 'c' }])).toEqual([{ topic: 't', partition: 0, offset: '1' }]);
      expect(stored()).toEqual(['0:a', '1:c']);
      await consumer.stop();
    });
  });

  it('writes what is handed off when it closes, after its consumers stop', async () => {
    await withHandOff(async ({ log, stored }) => {
      const { batches } = await holdingConsumer(log);
      const produced = log.produce('t', [{ key: 'k', value: 'at close' }]);
      await until('the batch', () => batches.length === 1);
      batches[0]!.release();
      await log.close();
      expect(await produced).toEqual([{ topic: 't', partition: 0, offset: '0' }]);
      expect(stored()).toEqual(['0:at close']);
    });
  });
});
