/**
 * The session signing secret. JWT_SECRET wins; without it the embedded setup generates one at the
 * first start and keeps it in DATA_DIR/jwt-secret (mode 0600), so sessions survive restarts.
 * Several api processes must share one secret: set JWT_SECRET for them (docs/decisions.md).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config';
import { ConfigError } from './config';

export const JWT_SECRET_FILE = 'jwt-secret';

export interface SecretLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

function readSecret(path: string): string | undefined {
  try {
    const value = readFileSync(path, 'utf8').trim();
    // Someone loosened the mode: tighten it rather than refuse to start.
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export function resolveJwtSecret(
  config: Pick<Config, 'jwtSecret' | 'dataDir' | 'mongodb'>,
  logger: SecretLogger,
): string {
  if (config.jwtSecret) return config.jwtSecret;
  const path = join(config.dataDir, JWT_SECRET_FILE);
  let secret = readSecret(path);
  if (secret === undefined) {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    try {
      // `wx`: of two processes starting at once on one directory, one writes and the other reads.
      writeFileSync(path, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
      logger.info({ file: path }, 'generated the session signing secret (set JWT_SECRET to choose one)');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    secret = readSecret(path);
  }
  if (!secret || secret.length < 32)
    throw new ConfigError('JWT_SECRET', `is unset and ${path} does not hold a secret of at least 32 characters`);
  if (config.mongodb)
    logger.warn(
      { file: path },
      'JWT_SECRET is unset: sessions signed here are valid only in processes sharing this DATA_DIR',
    );
  return secret;
}

export const CRM_CREDENTIALS_KEY_FILE = 'crm-credentials-key';

/**
 * The AES-256-GCM key of CRM connection credentials. CRM_CREDENTIALS_KEY wins; without it the
 * embedded setup generates 32 random bytes at the first start and keeps them (base64) in
 * DATA_DIR/crm-credentials-key (mode 0600). Every process that reads connections (api, crm-sync
 * workers) must have the same key: set CRM_CREDENTIALS_KEY for them.
 */
export function resolveCrmCredentialsKey(
  config: Pick<Config, 'crm' | 'dataDir' | 'mongodb'>,
  logger: SecretLogger,
): Buffer {
  if (config.crm.credentialsKey) return config.crm.credentialsKey;
  const path = join(config.dataDir, CRM_CREDENTIALS_KEY_FILE);
  let stored = readSecret(path);
  if (stored === undefined) {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      logger.info({ file: path }, 'generated the CRM credentials key (set CRM_CREDENTIALS_KEY to choose one)');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    stored = readSecret(path);
  }
  const key = stored === undefined ? undefined : Buffer.from(stored, 'base64');
  if (!key || key.length !== 32)
    throw new ConfigError('CRM_CREDENTIALS_KEY', `is unset and ${path} does not hold a 32-byte key in base64`);
  if (config.mongodb)
    logger.warn(
      { file: path },
      'CRM_CREDENTIALS_KEY is unset: CRM credentials stored here are readable only by processes sharing this DATA_DIR',
    );
  return key;
}
