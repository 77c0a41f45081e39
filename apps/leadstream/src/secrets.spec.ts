import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config';
import { resolveJwtSecret } from './secrets';

const dir = mkdtempSync(join(tmpdir(), 'leadstream-secrets-'));
const logger = { info: () => undefined, warn: () => undefined };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveJwtSecret', () => {
  it('prefers JWT_SECRET', () => {
    expect(
      resolveJwtSecret({ jwtSecret: 's'.repeat(32), dataDir: join(dir, 'none'), mongodb: undefined }, logger),
    ).toBe('s'.repeat(32));
  });

  it('generates a secret once into DATA_DIR/jwt-secret with mode 0600 and reuses it', () => {
    const dataDir = join(dir, 'data');
    const first = resolveJwtSecret({ jwtSecret: undefined, dataDir, mongodb: undefined }, logger);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(resolveJwtSecret({ jwtSecret: undefined, dataDir, mongodb: undefined }, logger)).toBe(first);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(first);
  });

  it('refuses a stored secret that is too short, naming JWT_SECRET', () => {
    const dataDir = join(dir, 'short');
    resolveJwtSecret({ jwtSecret: undefined, dataDir, mongodb: undefined }, logger);
    writeFileSync(join(dataDir, 'jwt-secret'), 'short\n');
    expect(() => resolveJwtSecret({ jwtSecret: undefined, dataDir, mongodb: undefined }, logger)).toThrow(ConfigError);
  });
});
