import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

describe('retention settings', () => {
  it('default to a week of log and 365, 90 and 30 days of activity, dedup log and deliveries', () => {
    expect(parseConfig({}).retention).toEqual({
      logHours: 168,
      activityDays: 365,
      dedupLogDays: 90,
      webhookDeliveryDays: 30,
    });
  });

  it('read the four variables, 0 days keeping documents forever', () => {
    const config = parseConfig({
      LOG_RETENTION_HOURS: '24',
      ACTIVITY_RETENTION_DAYS: '0',
      DEDUP_LOG_RETENTION_DAYS: '7',
      WEBHOOK_DELIVERY_RETENTION_DAYS: '14',
    });
    expect(config.retention).toEqual({ logHours: 24, activityDays: 0, dedupLogDays: 7, webhookDeliveryDays: 14 });
  });

  it('refuse a log retention under an hour and anything not a whole number, naming the variable', () => {
    expect(() => parseConfig({ LOG_RETENTION_HOURS: '0' })).toThrow(
      new ConfigError('LOG_RETENTION_HOURS', 'must be between 1 and 87600, got 0'),
    );
    expect(() => parseConfig({ DEDUP_LOG_RETENTION_DAYS: '1.5' })).toThrow(
      new ConfigError('DEDUP_LOG_RETENTION_DAYS', 'must be a whole number, got "1.5"'),
    );
  });
});
