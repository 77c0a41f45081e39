/**
 * The rate limits (docs/api-conventions.md "Rate limits") as data: requests per window, every
 * window one minute. Scope names become part of the counter ids in the store, so they are stable
 * identifiers.
 */
import type { Environment } from '../tenant';

export const RATE_LIMIT_WINDOW_SECONDS = 60;

export const RATE_LIMITS = {
  authentication: 10,
  /** "Lead ingestion (general statement)". */
  ingestion: 500,
  ingest_single_live: 500,
  ingest_bulk_live: 50,
  ingest_single_sandbox: 100,
  ingest_bulk_sandbox: 10,
  general_api: 100,
  list_leads: 100,
  get_lead: 200,
  create_lead: 50,
  update_lead: 100,
  bulk_operations: 20,
  export: 10,
  list_webhooks: 100,
  create_webhook: 10,
  update_webhook: 50,
  test_webhook: 20,
  get_webhook_deliveries: 100,
  funnel_education: 500,
  funnel_enterprise: 1000,
} as const satisfies Record<string, number>;

export type RateLimitScope = keyof typeof RATE_LIMITS;

/** The scope of a vendor ingestion request: single or bulk, live or sandbox. */
export function ingestScope(kind: 'single' | 'bulk', environment: Environment): RateLimitScope {
  return `ingest_${kind}_${environment}`;
}
