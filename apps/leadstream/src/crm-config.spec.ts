/** CRM configuration (CRM_CREDENTIALS_KEY, CRM_RETRY_SCHEDULE, CRM_TIMEOUT_MS) and the key kept in DATA_DIR. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';
import { CRM_CREDENTIALS_KEY_FILE, resolveCrmCredentialsKey } from './secrets';

const dir = mkdtempSync(join(tmpdir(), 'leadstream-crm-config-'));
const logger = { info: () => undefined, warn: () => undefined };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CRM configuration', () => {
  it('defaults to the documented retry schedule, 30 s calls and a key from DATA_DIR', () => {
    const config = parseConfig({}, dir);
    expect(config.crm).toEqual({
      credentialsKey: undefined,
      retrySchedule: [
        { name: '1m', delayMs: 60_000 },
        { name: '5m', delayMs: 300_000 },
        { name: '30m', delayMs: 1_800_000 },
        { name: '2h', delayMs: 7_200_000 },
        { name: '24h', delayMs: 86_400_000 },
      ],
      timeoutMs: 30_000,
    });
  });

  it('reads a key as hex or base64, a shrunk schedule and a timeout; refuses bad values naming the variable', () => {
    const key = randomBytes(32);
    expect(
      parseConfig(
        { CRM_CREDENTIALS_KEY: key.toString('hex'), CRM_RETRY_SCHEDULE: '500ms, 2s', CRM_TIMEOUT_MS: '2000' },
        dir,
      ).crm,
    ).toEqual({
      credentialsKey: key,
      retrySchedule: [
        { name: '500ms', delayMs: 500 },
        { name: '2s', delayMs: 2_000 },
      ],
      timeoutMs: 2_000,
    });
    expect(parseConfig({ CRM_CREDENTIALS_KEY: key.toString('base64') }, dir).crm.credentialsKey).toEqual(key);
    expect(() => parseConfig({ CRM_CREDENTIALS_KEY: 'too-short' }, dir)).toThrow(
      new ConfigError('CRM_CREDENTIALS_KEY', 'must be 32 bytes as 64 hex digits or base64 (got 6 bytes)'),
    );
    expect(() => parseConfig({ CRM_RETRY_SCHEDULE: '1m,soon' }, dir)).toThrow(
      /^CRM_RETRY_SCHEDULE: must be comma-separated durations such as 1m,5m,30m,2h,24h: "soon" is not a duration/,
    );
  });

  it('generates a key once into DATA_DIR/crm-credentials-key (mode 0600), reuses it, and prefers CRM_CREDENTIALS_KEY', () => {
    const dataDir = join(dir, 'data');
    const config = { crm: parseConfig({}, dir).crm, dataDir, mongodb: undefined };
    const first = resolveCrmCredentialsKey(config, logger);
    expect(first).toHaveLength(32);
    expect(statSync(join(dataDir, CRM_CREDENTIALS_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(resolveCrmCredentialsKey(config, logger)).toEqual(first);
    expect(Buffer.from(readFileSync(join(dataDir, CRM_CREDENTIALS_KEY_FILE), 'utf8').trim(), 'base64')).toEqual(first);
    const configured = randomBytes(32);
    expect(resolveCrmCredentialsKey({ ...config, crm: { ...config.crm, credentialsKey: configured } }, logger)).toEqual(
      configured,
    );
    writeFileSync(join(dataDir, CRM_CREDENTIALS_KEY_FILE), 'c2hvcnQ=\n');
    expect(() => resolveCrmCredentialsKey(config, logger)).toThrow(ConfigError);
  });
});
