/** Which failures are retried without end, judged on errors built by the engines' own libraries. */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  KafkaJSAggregateError,
  KafkaJSConnectionError,
  KafkaJSError,
  KafkaJSGroupCoordinatorNotFound,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSRequestTimeoutError,
} from 'kafkajs';
import {
  MongoClient,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoNotConnectedError,
  MongoServerError,
  MongoTopologyClosedError,
} from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { backoffDelay, isTransientError, retryTransient } from './transient-errors';

// kafkajs builds a broker's error answer from its own table of Kafka error codes (retriable or not).
const { createErrorFromCode } = createRequire(import.meta.url)('kafkajs/src/protocol/error') as {
  createErrorFromCode: (code: number) => Error & { type: string };
};

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A real SQLITE_BUSY: a second connection writes while the first holds the write lock. */
function sqliteBusyError(): unknown {
  const dir = mkdtempSync(join(tmpdir(), 'transient-'));
  dirs.push(dir);
  const first = new Database(join(dir, 'db.sqlite'));
  const second = new Database(join(dir, 'db.sqlite'), { timeout: 0 });
  try {
    first.exec('CREATE TABLE t (x)');
    first.exec('BEGIN IMMEDIATE');
    try {
      second.exec('INSERT INTO t VALUES (1)');
    } catch (error) {
      return error;
    } finally {
      first.exec('ROLLBACK');
    }
    throw new Error('expected SQLITE_BUSY');
  } finally {
    second.close();
    first.close();
  }
}

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function connectionRefused(port: number): Promise<unknown> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.on('error', resolve);
    socket.on('connect', () => {
      socket.destroy();
      resolve(new Error('expected ECONNREFUSED'));
    });
  });
}

describe('isTransientError', () => {
  it('is true for the log failures kafkajs marks retriable', () => {
    const notLeader = createErrorFromCode(6);
    expect(notLeader.type).toBe('NOT_LEADER_FOR_PARTITION');
    expect(isTransientError(notLeader)).toBe(true);
    expect(isTransientError(createErrorFromCode(5))).toBe(true); // LEADER_NOT_AVAILABLE
    expect(isTransientError(createErrorFromCode(7))).toBe(true); // REQUEST_TIMED_OUT
    expect(isTransientError(createErrorFromCode(3))).toBe(true); // UNKNOWN_TOPIC_OR_PARTITION (metadata not caught up)
    expect(
      isTransientError(
        new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092', {
          broker: '127.0.0.1:9092',
          code: 'ECONNREFUSED',
        }),
      ),
    ).toBe(true);
    expect(isTransientError(new KafkaJSRequestTimeoutError('Request Produce(key: 0, version: 7) timed out'))).toBe(
      true,
    );
    expect(isTransientError(new KafkaJSError('Broker is restarting', { retriable: true }))).toBe(true);
    // kafkajs's typings omit the message its own code passes.
    const CoordinatorNotFound = KafkaJSGroupCoordinatorNotFound as unknown as new (message: string) => Error;
    expect(isTransientError(new CoordinatorNotFound('Failed to find group coordinator'))).toBe(true);
    // kafkajs gives up after its own retries, wrapping the last retriable failure.
    expect(
      isTransientError(new KafkaJSNumberOfRetriesExceeded(createErrorFromCode(6), { retryCount: 5, retryTime: 2_000 })),
    ).toBe(true);
    expect(
      isTransientError(
        new KafkaJSAggregateError('sending to 2 brokers failed', [
          createErrorFromCode(6),
          new KafkaJSConnectionError('Connection timeout'),
        ]),
      ),
    ).toBe(true);
  });

  it('is true for MongoDB network, server-selection and labelled retryable failures', async () => {
    expect(isTransientError(new MongoNetworkError('connection 4 to 127.0.0.1:27017 closed'))).toBe(true);
    expect(isTransientError(new MongoNetworkTimeoutError('connection 4 to 127.0.0.1:27017 timed out'))).toBe(true);
    expect(isTransientError(new MongoNotConnectedError('Client must be connected before running operations'))).toBe(
      true,
    );
    expect(
      isTransientError(new MongoServerError({ message: 'not primary', code: 10107, codeName: 'NotWritablePrimary' })),
    ).toBe(true);
    expect(
      isTransientError(
        new MongoServerError({
          message: 'operation was interrupted',
          code: 11602,
          errorLabels: ['RetryableWriteError'],
        }),
      ),
    ).toBe(true);
    expect(
      isTransientError(
        new MongoServerError({
          message: 'write conflict',
          code: 112,
          codeName: 'WriteConflict',
          errorLabels: ['TransientTransactionError'],
        }),
      ),
    ).toBe(true);
    // The driver's own server-selection failure, from a server that is not there.
    const client = new MongoClient(`mongodb://127.0.0.1:${await closedPort()}/`, {
      serverSelectionTimeoutMS: 50,
      connectTimeoutMS: 50,
    });
    const selection = await client.connect().then(
      () => new Error('expected a server selection failure'),
      (error: unknown) => error,
    );
    await client.close();
    expect(selection).toMatchObject({ name: 'MongoServerSelectionError' });
    expect(isTransientError(selection)).toBe(true);
  });

  it('is true for a busy or locked SQLite database and for lost or refused sockets', async () => {
    const busy = sqliteBusyError();
    expect(busy).toBeInstanceOf(Database.SqliteError);
    expect(busy).toMatchObject({ code: 'SQLITE_BUSY' });
    expect(isTransientError(busy)).toBe(true);
    expect(isTransientError(new Database.SqliteError('database table is locked', 'SQLITE_LOCKED'))).toBe(true);
    expect(isTransientError(new Database.SqliteError('database is locked', 'SQLITE_BUSY_SNAPSHOT'))).toBe(true);

    const refused = await connectionRefused(await closedPort());
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isTransientError(refused)).toBe(true);
    for (const code of ['ECONNRESET', 'ETIMEDOUT', 'EPIPE']) {
      expect(isTransientError(Object.assign(new Error(`write ${code}`), { code, syscall: 'write' }))).toBe(true);
    }
    // An engine's own error that wraps one of these.
    expect(
      isTransientError(new Error('could not write the batch', { cause: new MongoNetworkError('connection reset') })),
    ).toBe(true);
  });

  it("is true for FerretDB's internal errors that say its PostgreSQL is away or restarting, and only those", () => {
    // What FerretDB 1.24 answers while its PostgreSQL is killed and starting again (messages as it sends them).
    const away = [
      '[msg_find.go:344 handler.handleMaxTimeMSError] [collection.go:109 postgresql.(*collection).Query] failed to connect to `user=postgres database=ferretdb`:\n\t127.0.0.1:25432 (127.0.0.1): dial error: dial tcp 127.0.0.1:25432: connect: connection refused',
      '[msg_insert.go:168 handler.(*Handler).MsgInsert] failed to connect to `user=postgres database=ferretdb`:\n\t127.0.0.1:25432 (127.0.0.1): server error: FATAL: the database system is not yet accepting connections (SQLSTATE 57P03)',
      '[msg_find.go:344 handler.handleMaxTimeMSError] [collection.go:109 postgresql.(*collection).Query] unexpected EOF',
      '[msg_update.go:117 handler.(*Handler).MsgUpdate] [collection.go:107 postgresql.(*collection).Prepare] FATAL: terminating connection due to unexpected postmaster exit (SQLSTATE 57P01)',
    ];
    for (const message of away)
      expect(isTransientError(new MongoServerError({ message, code: 1, codeName: 'InternalError' }))).toBe(true);
    // Other internal errors are not the backend's absence: retrying repeats them.
    expect(
      isTransientError(
        new MongoServerError({
          message: '[msg_find.go:344 handler.handleMaxTimeMSError] unsupported operator $where',
          code: 1,
          codeName: 'InternalError',
        }),
      ),
    ).toBe(false);
    expect(
      isTransientError(
        new MongoServerError({
          message: 'failed to connect to `user=postgres database=ferretdb`',
          code: 2,
          codeName: 'BadValue',
        }),
      ),
    ).toBe(false);
  });

  it('is true for a full disk: SQLite out of room and the system out of space come back once space is freed', () => {
    // A real SQLITE_FULL: a database not allowed to grow past its pages refuses an insert as a full disk does.
    const dir = mkdtempSync(join(tmpdir(), 'transient-full-'));
    const db = new Database(join(dir, 'full.sqlite'));
    let full: unknown;
    try {
      db.exec('CREATE TABLE t (v TEXT)');
      db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
      db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(100_000));
    } catch (error) {
      full = error;
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(full).toBeInstanceOf(Database.SqliteError);
    expect(full).toMatchObject({ code: 'SQLITE_FULL', message: 'database or disk is full' });
    expect(isTransientError(full)).toBe(true);
    // A real ENOSPC: /dev/full refuses every write with it.
    let noSpace: unknown;
    const fd = openSync('/dev/full', 'w');
    try {
      writeSync(fd, 'x');
    } catch (error) {
      noSpace = error;
    } finally {
      closeSync(fd);
    }
    expect(noSpace).toMatchObject({ code: 'ENOSPC' });
    expect(isTransientError(noSpace)).toBe(true);
    // As the pipeline thread hands it to the HTTP thread: a plain Error with the code.
    expect(
      isTransientError(
        Object.assign(new Error('database or disk is full'), { name: 'SqliteError', code: 'SQLITE_FULL' }),
      ),
    ).toBe(true);
  });

  it('is false for failures that come back the same on every try', () => {
    expect(isTransientError(new SyntaxError('Unexpected end of JSON input'))).toBe(false);
    expect(isTransientError(new TypeError("Cannot read properties of undefined (reading 'email')"))).toBe(false);
    expect(isTransientError(Object.assign(new Error('Validation failed'), { code: 'VALIDATION_FAILED' }))).toBe(false);
    expect(
      isTransientError(new Database.SqliteError('UNIQUE constraint failed: leads.id', 'SQLITE_CONSTRAINT_PRIMARYKEY')),
    ).toBe(false);
    expect(isTransientError(new Database.SqliteError('no such table: leads', 'SQLITE_ERROR'))).toBe(false);
    expect(isTransientError(new MongoServerError({ message: 'Document failed validation', code: 121 }))).toBe(false);
    expect(isTransientError(new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 }))).toBe(false);
    // This process closed its client: no retry reopens it.
    expect(isTransientError(new MongoTopologyClosedError())).toBe(false);
    expect(isTransientError(createErrorFromCode(10))).toBe(false); // MESSAGE_TOO_LARGE
    expect(
      isTransientError(new KafkaJSNonRetriableError('Invalid message without value for topic leads.submitted')),
    ).toBe(false);
    // kafkajs retries any error its callback throws; exhausting them on a bug is still a bug.
    expect(
      isTransientError(
        new KafkaJSNumberOfRetriesExceeded(new TypeError('x is not a function'), { retryCount: 5, retryTime: 2_000 }),
      ),
    ).toBe(false);
    expect(
      isTransientError(new KafkaJSAggregateError('sending failed', [createErrorFromCode(6), createErrorFromCode(10)])),
    ).toBe(false);
    expect(isTransientError(undefined)).toBe(false);
    expect(isTransientError(null)).toBe(false);
    expect(isTransientError('ECONNRESET')).toBe(false);
  });

  it('follows a cause chain without looping on a cycle', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(isTransientError(a)).toBe(false);
  });
});

/** A sleep that takes no time and remembers what it was asked to wait. */
function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
}

describe('retryTransient', () => {
  it('retries transient failures with growing, capped delays until the work succeeds', async () => {
    const { sleep, waits } = recordingSleep();
    const retries: Array<[number, number]> = [];
    let calls = 0;
    const result = await retryTransient(
      async (attempt) => {
        calls++;
        expect(attempt).toBe(calls);
        if (calls <= 6) throw createErrorFromCode(6);
        return 'written';
      },
      {
        baseDelayMs: 100,
        maxDelayMs: 1_000,
        sleep,
        random: () => 0.999_999,
        onRetry: (_error, attempt, delayMs) => retries.push([attempt, delayMs]),
      },
    );
    expect(result).toBe('written');
    expect(calls).toBe(7);
    expect(waits).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect(retries).toEqual(waits.map((delay, index) => [index + 1, delay]));
  });

  it('rethrows a failure that is not transient at once, without waiting', async () => {
    const { sleep, waits } = recordingSleep();
    const bug = new TypeError('x is not a function');
    let calls = 0;
    await expect(
      retryTransient(
        async () => {
          calls++;
          throw bug;
        },
        { sleep },
      ),
    ).rejects.toBe(bug);
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it('rethrows a non-transient failure that follows transient ones', async () => {
    const { sleep, waits } = recordingSleep();
    const failures: Error[] = [
      new MongoNetworkError('connection closed'),
      new MongoServerError({ message: 'Document failed validation', code: 121 }),
    ];
    await expect(
      retryTransient(
        async () => {
          throw failures.shift() ?? new Error('called too often');
        },
        { sleep },
      ),
    ).rejects.toMatchObject({ code: 121 });
    expect(waits).toHaveLength(1);
  });

  it('gives up after `attempts` tries with the last transient failure', async () => {
    const { sleep, waits } = recordingSleep();
    let calls = 0;
    await expect(
      retryTransient(
        async () => {
          calls++;
          throw new Database.SqliteError(`database is locked (${calls})`, 'SQLITE_BUSY');
        },
        { attempts: 3, sleep },
      ),
    ).rejects.toThrow('database is locked (3)');
    expect(calls).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it('retries without end by default, and stops when its signal aborts', async () => {
    const controller = new AbortController();
    const waits: number[] = [];
    let calls = 0;
    await expect(
      retryTransient(
        async () => {
          calls++;
          throw new KafkaJSConnectionError(`Connection error ${calls}`);
        },
        {
          maxDelayMs: 30_000,
          random: () => 0.5,
          signal: controller.signal,
          sleep: async (ms, signal) => {
            waits.push(ms);
            expect(signal).toBe(controller.signal);
            if (waits.length === 1_000) controller.abort();
          },
        },
      ),
    ).rejects.toThrow('Connection error 1000');
    expect(calls).toBe(1_000);
    // Past the cap every wait is the capped delay with its jitter: 30 s / 2 + 0.5 * 30 s / 2.
    expect(waits.at(-1)).toBe(22_500);
  });

  it('jitters each delay between half and all of its exponential step', () => {
    expect(backoffDelay(1, 100, 10_000, () => 0)).toBe(50);
    expect(backoffDelay(1, 100, 10_000, () => 0.999_999)).toBe(100);
    expect(backoffDelay(4, 100, 10_000, () => 0)).toBe(400);
    expect(backoffDelay(60, 100, 10_000, () => 0)).toBe(5_000);
    expect(backoffDelay(10_000, 100, 10_000, () => 0.999_999)).toBe(10_000);
  });
});
