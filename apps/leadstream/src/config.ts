/**
 * Configuration is read from the environment once, at boot, into a typed object. A bad value
 * stops the process with a message naming the variable. Nothing else reads process.env.
 */
import { resolve } from 'node:path';
import { DEFAULT_CRM_RETRY_SCHEDULE, parseCrmRetrySchedule, type CrmRetryStep } from '@leadstream/domain';
import { parseCredentialsKey } from '@leadstream/runtime';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, parseRetrySchedule } from '@leadstream/domain';
import { INTAKE_STAGE_NAMES } from '@leadstream/worker';

export interface Config {
  host: string;
  port: number;
  /** Port of the health/readiness/metrics server of processes without the API. 0 = none. */
  opsPort: number;
  dataDir: string;
  logLevel: string;
  kafka: { brokers: string[]; clientId: string } | undefined;
  mongodb: { uri: string; dbName: string } | undefined;
  clickhouse: { url: string; username: string | undefined; password: string | undefined; database: string } | undefined;
  /** Prefix for every topic and consumer group, so deployments can share a Kafka cluster. */
  topicPrefix: string;
  /** TOPIC_PARTITIONS: partitions of each topic created at boot; 6 on Kafka, 1 on the embedded log. */
  topicPartitions: number;
  decisionTimeoutMs: number;
  shutdownTimeoutMs: number;
  bodyLimit: string;
  /** MX lookups of email domains (no MX record rejects a lead); organizations can also turn them off. */
  mxCheck: boolean;
  /** Resolvers for MX lookups as host[:port]; undefined = the system's. */
  dnsServers: string[] | undefined;
  /** Per-query DNS timeout; past it a lead is accepted with a warning. */
  mxTimeoutMs: number;
  /** Trust X-Forwarded-For (behind a reverse proxy) for the client address. */
  trustProxy: boolean;
  /** Session signing secret (JWT_SECRET, ≥32 characters); undefined = generated into DATA_DIR/jwt-secret. */
  jwtSecret: string | undefined;
  /** `smtp://user:pass@host:port` or `smtps://…`; undefined = mail goes to DATA_DIR/outbox. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * Base URL of the web app, for links in mails (reset password, invitations) and the console
   * address printed at start-up; undefined = where this process listens (`appBaseUrl`).
   */
  appUrl: string | undefined;
  /** Outbound calls to organizations' URLs (rule webhooks): http and non-public addresses allowed. Development and tests only. */
  allowInsecureTargets: boolean;
  /** Time limit of one rule-webhook call (RULE_WEBHOOK_TIMEOUT_MS, default 10 s). */
  ruleWebhookTimeoutMs: number;
  /** Reprocessing jobs (docs/reprocessing.md): leads per batch (REPROCESS_BATCH_SIZE), the least pause between batches (REPROCESS_PAUSE_MS) and the share of the time a job may take (REPROCESS_SHARE_PERCENT). */
  reprocess: { batchSize: number; pauseMs: number; share: number };
  /**
   * Intake first (docs/pipeline.md): the share of a process's pipeline time the outbound stages
   * (webhook deliveries, CRM calls, rule webhooks, activity) keep while the intake is busy and the
   * thread saturated (OUTBOUND_SHARE_PERCENT; 1 = no priority).
   */
  outboundShare: number;
  /**
   * CRM syncs: the AES-256-GCM key of connection credentials (CRM_CREDENTIALS_KEY, 32 bytes as hex or
   * base64; undefined = generated into DATA_DIR/crm-credentials-key), the retry schedule
   * (CRM_RETRY_SCHEDULE, default 1m,5m,30m,2h,24h) and the time limit of one call (CRM_TIMEOUT_MS, 30 s).
   */
  crm: { credentialsKey: Buffer | undefined; retrySchedule: CrmRetryStep[]; timeoutMs: number };
  /** Webhook deliveries: attempt time limit (WEBHOOK_TIMEOUT_MS, default 30 s), retry delays (WEBHOOK_RETRY_SCHEDULE, default 1m,5m,30m,2h,24h), and deliveries in a row ending failed before a webhook is disabled (WEBHOOK_AUTO_DISABLE_AFTER, 20; 0 = never). */
  webhooks: { timeoutMs: number; retryScheduleMs: number[]; autoDisableAfter: number };
  /** Development and tests: answers that contradict the OpenAPI document become 500s naming the contradiction. */
  checkResponses: boolean;
  /** Every rate limit (docs/api-conventions.md "Rate limits") times this (RATE_LIMIT_SCALE, default 1): for a gateway in front, or load and fuzz runs. */
  rateLimitScale: number;
  /**
   * Where the intake chain breaks (PIPELINE_SPLIT, comma-separated stage names, or "all"): each
   * named stage starts a chain of its own, a consumer group an operator can scale apart. Empty
   * (the default): validate, dedup, enrich and route run as one chain (docs/pipeline.md).
   */
  pipelineSplit: string[];
  /**
   * How long a consumer may hold one offset of a partition (a batch being handled or retried)
   * before /readyz reports the process degraded naming it (STUCK_PARTITION_MS, default 2 minutes).
   */
  stuckPartitionMs: number;
  /**
   * Retention (docs/decisions.md "Retention and backup"): the embedded log keeps a record until
   * every consumer group has committed past it and LOG_RETENTION_HOURS (168) have passed; activity
   * entries, dedup log entries and webhook deliveries are deleted ACTIVITY_RETENTION_DAYS (365),
   * DEDUP_LOG_RETENTION_DAYS (90) and WEBHOOK_DELIVERY_RETENTION_DAYS (30) after they were written
   * (0 keeps them forever; sandbox ones go after 24 h, with their lead).
   */
  retention: { logHours: number; activityDays: number; dedupLogDays: number; webhookDeliveryDays: number };
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw))
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

/**
 * The base of the web app's links: APP_URL when set (behind a proxy), else the address the API
 * listens on (`listeningUrl`, with an any-address bind shown as localhost), so a mail sent by a
 * service on PORT=3400 links to port 3400.
 */
export function appBaseUrl(config: Pick<Config, 'appUrl'>, listeningUrl: string): string {
  if (config.appUrl) return config.appUrl.replace(/\/+$/, '');
  return listeningUrl.replace(/\/\/(?:0\.0\.0\.0|\[::\]):/, '//localhost:').replace(/\/+$/, '');
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `is not a URL: "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol))
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  return raw;
}

function brokers(env: Env, name: string): string[] | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  const list = raw.split(',').map((entry) => entry.trim());
  for (const broker of list) {
    if (!/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/.test(broker))
      throw new ConfigError(name, `each broker must be host:port, got "${broker}"`);
  }
  return list;
}

function topicPrefix(env: Env): string {
  const raw = text(env, 'TOPIC_PREFIX') ?? '';
  if (!/^[A-Za-z0-9._-]{0,100}$/.test(raw))
    throw new ConfigError('TOPIC_PREFIX', `may hold only letters, digits, '.', '_' and '-', got "${raw}"`);
  return raw;
}

const BODY_LIMIT = /^\d+(b|kb|mb)$/i;

export function parseConfig(env: Env, cwd = process.cwd()): Config {
  const kafkaBrokers = brokers(env, 'KAFKA_BROKERS');
  const mongoUri = url(env, 'MONGODB_URI', ['mongodb:', 'mongodb+srv:']);
  const clickhouseUrl = url(env, 'CLICKHOUSE_URL', ['http:', 'https:']);
  const bodyLimit = text(env, 'BODY_LIMIT') ?? '1mb';
  if (!BODY_LIMIT.test(bodyLimit))
    throw new ConfigError('BODY_LIMIT', `must look like 512kb or 1mb, got "${bodyLimit}"`);
  return {
    host: text(env, 'HOST') ?? '127.0.0.1',
    port: integer(env, 'PORT', 3000, 0, 65535),
    opsPort: integer(env, 'OPS_PORT', 0, 0, 65535),
    dataDir: resolve(cwd, text(env, 'DATA_DIR') ?? 'data'),
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    kafka: kafkaBrokers ? { brokers: kafkaBrokers, clientId: text(env, 'KAFKA_CLIENT_ID') ?? 'leadstream' } : undefined,
    mongodb: mongoUri ? { uri: mongoUri, dbName: text(env, 'MONGODB_DB') ?? 'leadstream' } : undefined,
    clickhouse: clickhouseUrl
      ? {
          url: clickhouseUrl,
          username: text(env, 'CLICKHOUSE_USER'),
          password: text(env, 'CLICKHOUSE_PASSWORD'),
          database: text(env, 'CLICKHOUSE_DATABASE') ?? 'default',
        }
      : undefined,
    topicPrefix: topicPrefix(env),
    // Partitions are how consumers of one group share work across processes. The embedded log
    // belongs to one process, whose one member of each group reads its partitions in turn: there
    // more partitions only cut each batch smaller, so its default is 1 (docs/pipeline.md).
    topicPartitions: integer(env, 'TOPIC_PARTITIONS', kafkaBrokers ? 6 : 1, 1, 1024),
    decisionTimeoutMs: integer(env, 'DECISION_TIMEOUT_MS', 3_000, 100, 60_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 20_000, 1_000, 600_000),
    bodyLimit,
    mxCheck: oneOf(env, 'MX_CHECK', 'on', ['on', 'off'] as const) === 'on',
    dnsServers: dnsServers(env),
    mxTimeoutMs: integer(env, 'MX_TIMEOUT_MS', 2_000, 50, 30_000),
    trustProxy: oneOf(env, 'TRUST_PROXY', 'off', ['on', 'off'] as const) === 'on',
    jwtSecret: jwtSecret(env),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: text(env, 'MAIL_FROM') ?? 'LeadStream <no-reply@localhost>',
    appUrl: url(env, 'APP_URL', ['http:', 'https:']),
    allowInsecureTargets: oneOf(env, 'WEBHOOK_ALLOW_INSECURE_TARGETS', 'false', ['true', 'false'] as const) === 'true',
    ruleWebhookTimeoutMs: integer(env, 'RULE_WEBHOOK_TIMEOUT_MS', 10_000, 100, 30_000),
    reprocess: {
      batchSize: integer(env, 'REPROCESS_BATCH_SIZE', 50, 1, 5_000),
      pauseMs: integer(env, 'REPROCESS_PAUSE_MS', 0, 0, 60_000),
      share: integer(env, 'REPROCESS_SHARE_PERCENT', 10, 1, 100) / 100,
    },
    outboundShare: integer(env, 'OUTBOUND_SHARE_PERCENT', 10, 1, 100) / 100,
    crm: {
      credentialsKey: crmCredentialsKey(env),
      retrySchedule: crmRetrySchedule(env),
      timeoutMs: integer(env, 'CRM_TIMEOUT_MS', 30_000, 100, 120_000),
    },
    webhooks: {
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 30_000, 100, 120_000),
      retryScheduleMs: webhookRetrySchedule(env),
      autoDisableAfter: integer(env, 'WEBHOOK_AUTO_DISABLE_AFTER', 20, 0, 10_000),
    },
    checkResponses: oneOf(env, 'CHECK_RESPONSES', 'off', ['on', 'off'] as const) === 'on',
    rateLimitScale: integer(env, 'RATE_LIMIT_SCALE', 1, 1, 100_000),
    pipelineSplit: pipelineSplit(env),
    stuckPartitionMs: integer(env, 'STUCK_PARTITION_MS', 120_000, 1_000, 86_400_000),
    retention: {
      logHours: integer(env, 'LOG_RETENTION_HOURS', 168, 1, 87_600),
      activityDays: integer(env, 'ACTIVITY_RETENTION_DAYS', 365, 0, 36_500),
      dedupLogDays: integer(env, 'DEDUP_LOG_RETENTION_DAYS', 90, 0, 36_500),
      webhookDeliveryDays: integer(env, 'WEBHOOK_DELIVERY_RETENTION_DAYS', 30, 0, 36_500),
    },
  };
}

function pipelineSplit(env: Env): string[] {
  const raw = text(env, 'PIPELINE_SPLIT');
  if (raw === undefined || raw === 'none') return [];
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const allowed = INTAKE_STAGE_NAMES.slice(1);
  for (const name of names) {
    if (name !== 'all' && !allowed.includes(name))
      throw new ConfigError(
        'PIPELINE_SPLIT',
        `must name stages among ${allowed.join(', ')} (or be "all" or "none"), got "${name}"`,
      );
  }
  return names;
}

function webhookRetrySchedule(env: Env): number[] {
  const raw = text(env, 'WEBHOOK_RETRY_SCHEDULE') ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE;
  try {
    return parseRetrySchedule(raw);
  } catch (error) {
    throw new ConfigError(
      'WEBHOOK_RETRY_SCHEDULE',
      `must be comma-separated durations such as ${DEFAULT_WEBHOOK_RETRY_SCHEDULE}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** HS256 needs a key at least as long as its hash (RFC 7518 section 3.2): 32 characters. */
function jwtSecret(env: Env): string | undefined {
  const raw = text(env, 'JWT_SECRET');
  if (raw !== undefined && raw.length < 32)
    throw new ConfigError('JWT_SECRET', `must be at least 32 characters, got ${raw.length}`);
  return raw;
}

function dnsServers(env: Env): string[] | undefined {
  const raw = text(env, 'DNS_SERVERS');
  if (raw === undefined) return undefined;
  const list = raw.split(',').map((entry) => entry.trim());
  for (const server of list) {
    if (!/^(\[[0-9A-Fa-f:.]+\](:\d{1,5})?|[0-9.]+(:\d{1,5})?|[0-9A-Fa-f:]+)$/.test(server)) {
      throw new ConfigError(
        'DNS_SERVERS',
        `each resolver must be an IP address with an optional :port, got "${server}"`,
      );
    }
  }
  return list;
}

function crmCredentialsKey(env: Env): Buffer | undefined {
  const raw = text(env, 'CRM_CREDENTIALS_KEY');
  if (raw === undefined) return undefined;
  try {
    return parseCredentialsKey(raw);
  } catch (error) {
    throw new ConfigError('CRM_CREDENTIALS_KEY', error instanceof Error ? error.message : String(error));
  }
}

function crmRetrySchedule(env: Env): CrmRetryStep[] {
  const raw = text(env, 'CRM_RETRY_SCHEDULE') ?? DEFAULT_CRM_RETRY_SCHEDULE;
  try {
    return parseCrmRetrySchedule(raw);
  } catch (error) {
    throw new ConfigError(
      'CRM_RETRY_SCHEDULE',
      `must be comma-separated durations such as ${DEFAULT_CRM_RETRY_SCHEDULE}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
