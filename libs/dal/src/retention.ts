/**
 * How long activity entries, dedup log entries and webhook deliveries are kept
 * (ACTIVITY_RETENTION_DAYS, DEDUP_LOG_RETENTION_DAYS, WEBHOOK_DELIVERY_RETENTION_DAYS; README.md
 * "Engines and configuration", docs/decisions.md "Retention and backup").
 *
 * Each document gets its own expiry, `expires_at` (a Date), when it is first written, and a TTL
 * index with `expireAfterSeconds: 0` on that field deletes it then (the store port's TTL
 * mechanism: the engines' sweeps, and MongoDB's TTL monitor). The period is therefore read at the
 * write, never from the index, so changing a setting needs no index change; it applies to the
 * documents written after the change. A sandbox tenant's documents expire 24 h after they are
 * written, the period of the sandbox lead they belong to, so they go with it.
 *
 * The policy is set once per process (and per thread) at boot from the configuration
 * (`configureRetention`); the repositories' write operations read it.
 */
export interface RetentionPolicy {
  /** Days an activity entry of a live lead is kept; 0 keeps it forever. */
  activityDays: number;
  /** Days a dedup log entry of a live lead is kept; 0 keeps it forever. */
  dedupLogDays: number;
  /** Days a live webhook delivery is kept after it was created; 0 keeps it forever. */
  webhookDeliveryDays: number;
}

export const DEFAULT_RETENTION: Readonly<RetentionPolicy> = {
  activityDays: 365,
  dedupLogDays: 90,
  webhookDeliveryDays: 30,
};

/** Sandbox leads (and so their activity, dedup log entries and deliveries) live this long. */
export const SANDBOX_RETENTION_MS = 24 * 3_600_000;

/** The name of the TTL index on `expires_at` in each of the three collections. */
export const RETENTION_TTL_INDEX = 'expires_at_ttl';

let policy: RetentionPolicy = { ...DEFAULT_RETENTION };

export function configureRetention(next: RetentionPolicy): void {
  for (const [name, days] of Object.entries(next)) {
    if (!Number.isInteger(days) || days < 0)
      throw new RangeError(`retention ${name} must be a whole number of days >= 0, got ${String(days)}`);
  }
  policy = { ...next };
}

export function retentionPolicy(): Readonly<RetentionPolicy> {
  return policy;
}

/**
 * When a document written at `at` (an ISO string or Date; an unreadable one counts as now) of a
 * tenant's `environment` expires; undefined = never.
 */
export function retentionExpiry(kind: keyof RetentionPolicy, environment: string, at: string | Date): Date | undefined {
  let time = typeof at === 'string' ? Date.parse(at) : at.getTime();
  if (Number.isNaN(time)) time = Date.now();
  if (environment === 'sandbox') return new Date(time + SANDBOX_RETENTION_MS);
  const days = policy[kind];
  return days === 0 ? undefined : new Date(time + days * 86_400_000);
}
