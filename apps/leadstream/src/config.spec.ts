import { describe, expect, it } from 'vitest';
import { appBaseUrl, ConfigError, parseConfig } from './config';

describe('parseConfig', () => {
  it('chooses the embedded engines when no engine URL is set', () => {
    const config = parseConfig({}, '/srv');
    expect(config.kafka).toBeUndefined();
    expect(config.mongodb).toBeUndefined();
    expect(config.clickhouse).toBeUndefined();
    expect(config.dataDir).toBe('/srv/data');
    expect(config.port).toBe(3000);
    expect(config.mxCheck).toBe(true);
    expect(config.dnsServers).toBeUndefined();
  });

  it('reads MX settings', () => {
    const config = parseConfig({ MX_CHECK: 'off', DNS_SERVERS: '127.0.0.1:5353, [::1]:53, 9.9.9.9' });
    expect(config.mxCheck).toBe(false);
    expect(config.dnsServers).toEqual(['127.0.0.1:5353', '[::1]:53', '9.9.9.9']);
  });

  it('chooses the distributed engines when their variables are set', () => {
    const config = parseConfig({
      KAFKA_BROKERS: '127.0.0.1:19092, kafka-2:9092',
      MONGODB_URI: 'mongodb://127.0.0.1:27018/',
      CLICKHOUSE_URL: 'http://127.0.0.1:8123',
    });
    expect(config.kafka?.brokers).toEqual(['127.0.0.1:19092', 'kafka-2:9092']);
    expect(config.mongodb).toEqual({ uri: 'mongodb://127.0.0.1:27018/', dbName: 'leadstream' });
    expect(config.clickhouse?.url).toBe('http://127.0.0.1:8123');
  });

  it('reads the accounts settings, with defaults for mail and links', () => {
    const defaults = parseConfig({});
    expect(defaults.jwtSecret).toBeUndefined();
    expect(defaults.smtpUrl).toBeUndefined();
    // Unset: links go to where the service listens (known once it listens; PORT may be 0).
    expect(defaults.appUrl).toBeUndefined();
    expect(appBaseUrl(defaults, 'http://127.0.0.1:3400')).toBe('http://127.0.0.1:3400');
    expect(appBaseUrl(parseConfig({ HOST: '0.0.0.0', PORT: '3400' }), 'http://0.0.0.0:3400')).toBe(
      'http://localhost:3400',
    );
    expect(appBaseUrl(defaults, 'http://[::]:3400')).toBe('http://localhost:3400');
    expect(appBaseUrl(parseConfig({ APP_URL: 'https://leads.college.edu/' }), 'http://127.0.0.1:3400')).toBe(
      'https://leads.college.edu',
    );
    expect(defaults.mailFrom).toBe('LeadStream <no-reply@localhost>');
    const config = parseConfig({
      JWT_SECRET: 'x'.repeat(32),
      SMTP_URL: 'smtp://u:p@mail:587',
      MAIL_FROM: 'a@b.edu',
      APP_URL: 'https://app.college.edu',
    });
    expect(config).toMatchObject({
      jwtSecret: 'x'.repeat(32),
      smtpUrl: 'smtp://u:p@mail:587',
      mailFrom: 'a@b.edu',
      appUrl: 'https://app.college.edu',
    });
  });

  it('reads the webhook delivery settings, with the documented schedule and 30 s by default', () => {
    expect(parseConfig({}).webhooks).toEqual({
      timeoutMs: 30_000,
      retryScheduleMs: [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000],
      autoDisableAfter: 20,
    });
    const config = parseConfig({
      WEBHOOK_RETRY_SCHEDULE: '1s, 1s,500ms',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_AUTO_DISABLE_AFTER: '3',
    });
    expect(config.webhooks).toEqual({ timeoutMs: 2_000, retryScheduleMs: [1_000, 1_000, 500], autoDisableAfter: 3 });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['KAFKA_BROKERS', 'localhost'],
    ['MONGODB_URI', 'postgres://x'],
    ['CLICKHOUSE_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['TOPIC_PARTITIONS', '0'],
    ['BODY_LIMIT', 'huge'],
    ['TOPIC_PREFIX', 'has space'],
    ['MX_CHECK', 'maybe'],
    ['DNS_SERVERS', 'dns.google'],
    ['JWT_SECRET', 'too-short'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['APP_URL', 'ftp://app.example.com'],
    ['WEBHOOK_RETRY_SCHEDULE', '1m,soon'],
    ['WEBHOOK_RETRY_SCHEDULE', '0s'],
    ['WEBHOOK_AUTO_DISABLE_AFTER', '-1'],
    ['PIPELINE_SPLIT', 'validate'],
    ['PIPELINE_SPLIT', 'enrich,notify'],
    ['STUCK_PARTITION_MS', '500'],
    ['STUCK_PARTITION_MS', 'two minutes'],
  ])('names %s when its value %s is bad', (variable, value) => {
    const attempt = (): unknown => parseConfig({ [variable]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(new RegExp(`^${variable}:`));
  });

  it('reads where the intake chain breaks (PIPELINE_SPLIT), unbroken by default', () => {
    expect(parseConfig({}).pipelineSplit).toEqual([]);
    expect(parseConfig({ PIPELINE_SPLIT: 'none' }).pipelineSplit).toEqual([]);
    expect(parseConfig({ PIPELINE_SPLIT: ' enrich, route ' }).pipelineSplit).toEqual(['enrich', 'route']);
    expect(parseConfig({ PIPELINE_SPLIT: 'all' }).pipelineSplit).toEqual(['all']);
  });

  it('reads how long a partition may hold one offset before /readyz calls it stuck (STUCK_PARTITION_MS), 2 minutes by default', () => {
    expect(parseConfig({}).stuckPartitionMs).toBe(120_000);
    expect(parseConfig({ STUCK_PARTITION_MS: '30000' }).stuckPartitionMs).toBe(30_000);
  });

  it("reads the outbound stages' share of a saturated pipeline thread (OUTBOUND_SHARE_PERCENT), 10 % by default", () => {
    expect(parseConfig({}).outboundShare).toBe(0.1);
    expect(parseConfig({ OUTBOUND_SHARE_PERCENT: '100' }).outboundShare).toBe(1);
    expect(() => parseConfig({ OUTBOUND_SHARE_PERCENT: '0' })).toThrow(/^OUTBOUND_SHARE_PERCENT:/);
  });
});
