export { openAnalytics, type AnalyticsConfig, type AnalyticsLogger } from './clickhouse-analytics';
export { AnalyticsBatcher, type AnalyticsBatcherOptions } from './analytics-batcher';
export { analyticsMigrations, LEAD_EVENTS_TABLE, LEAD_STATUS_SELECT, LEAD_STATUS_TABLE } from './migrations';
