/** Which failures a stage retries without end: built from the engines' own error classes. */
import Database from 'better-sqlite3';
import { KafkaJSConnectionError, KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import { MongoNetworkError, MongoNetworkTimeoutError, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { isTransientError } from './transient';

describe('isTransientError', () => {
  it('is true for a busy or locked SQLite database, lost connections, and brokers not ready', () => {
    expect(isTransientError(new Database.SqliteError('database is locked', 'SQLITE_BUSY'))).toBe(true);
    expect(isTransientError(new Database.SqliteError('database table is locked', 'SQLITE_LOCKED'))).toBe(true);
    expect(isTransientError(new MongoNetworkError('connection closed'))).toBe(true);
    expect(isTransientError(new MongoNetworkTimeoutError('connection timed out'))).toBe(true);
    expect(isTransientError(new KafkaJSConnectionError('Connection error: ECONNREFUSED'))).toBe(true);
    expect(isTransientError(new KafkaJSNumberOfRetriesExceeded(new Error('leader not available'), { retryCount: 5, retryTime: 3000 }))).toBe(true);
    // What kafkajs raises for NOT_LEADER_FOR_PARTITION (its error table marks the code retriable).
    const notLeader = Object.assign(new KafkaJSProtocolError('This server is not the leader for that topic-partition'), { type: 'NOT_LEADER_FOR_PARTITION', code: 6, retriable: true });
    expect(isTransientError(notLeader)).toBe(true);
    expect(isTransientError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isTransientError(new Error('write failed', { cause: new MongoNetworkError('connection reset') }))).toBe(true);
  });

  it('is false for failures that come back the same every time', () => {
    expect(isTransientError(new SyntaxError('Unexpected end of JSON input'))).toBe(false);
    expect(isTransientError(new Error('lead lead_1 exists already'))).toBe(false);
    expect(isTransientError(new Database.SqliteError('UNIQUE constraint failed: leads.id', 'SQLITE_CONSTRAINT_PRIMARYKEY'))).toBe(false);
    expect(isTransientError(new MongoServerError({ message: 'Document failed validation', code: 121 }))).toBe(false);
    expect(isTransientError(new KafkaJSNonRetriableError('message too large'))).toBe(false);
    expect(isTransientError(undefined)).toBe(false);
    expect(isTransientError('a string')).toBe(false);
  });
});
