import { formatRetryDelay } from '@leadstream/domain';
import type { TopicSpec } from '@leadstream/ports';

/**
 * Every topic's plain name (docs/architecture.md "Topics"), defined here once: code imports the
 * name from this catalogue rather than spelling it. `TOPIC_PREFIX` is applied by the event log.
 */
export const TOPICS = {
  /** Submissions the api accepted at the edge, for the validate stage (keyed by lead id). */
  submitted: 'leads.submitted',
  validated: 'leads.validated',
  unique: 'leads.unique',
  enriched: 'leads.enriched',
  /** Routed leads: the route stage produces, crm-sync consumes. */
  routed: 'leads.routed',
  /** The pipeline's decisions about submissions, which the waiting api instance answers with (keyed by correlation id). */
  decisions: 'leads.decisions',
  /** Domain events (docs/api-conventions.md "Events"): activity, notify and the projector consume them. */
  events: 'leads.events',
  /** Webhook deliveries to make: the notify stage produces, the deliver stage consumes (keyed by webhook id). */
  webhookDeliveries: 'webhooks.deliveries',
  /** Export requests: the api produces, the export stage consumes. */
  exportRequests: 'exports.requests',
  /** Manual CRM syncs (POST /api/crm/:id/sync/:leadId), keyed by lead id: the api produces, the crm-sync stage consumes. */
  crmSyncRequests: 'crm.sync.requests',
  /** Webhook actions of enrichment rules, sent by the rule-webhook stage. */
  ruleWebhooks: 'rules.webhooks',
  /** Recalculation jobs of calculated fields (keyed by organization id): the api produces, the recalculate stage consumes. */
  calculationRequests: 'calculations.requests',
  /** Reprocessing jobs (POST /api/reprocess, keyed by job id): the api produces, the reprocess stage consumes (docs/reprocessing.md). */
  reprocessRequests: 'reprocess.requests',
  /** ConfigCache: every process drops an organization's cached configuration on a newer version. */
  configChanged: 'config.changed',
} as const;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The default webhook retry steps (docs/webhooks.md), one delay topic each (docs/architecture.md "Topics"). */
export const WEBHOOK_RETRY_STEPS = [
  { name: '1m', delayMs: MINUTE },
  { name: '5m', delayMs: 5 * MINUTE },
  { name: '30m', delayMs: 30 * MINUTE },
  { name: '2h', delayMs: 2 * HOUR },
  { name: '24h', delayMs: 24 * HOUR },
] as const;

export const DECISIONS_TOPIC = TOPICS.decisions;

export const WEBHOOK_DELIVERIES_TOPIC = TOPICS.webhookDeliveries;

/** The delay topic of one webhook retry delay, named by the delay (`webhooks.retry.5m`, `webhooks.retry.1s`). */
export function webhookRetryTopic(delayMs: number): string {
  return `webhooks.retry.${formatRetryDelay(delayMs)}`;
}

/** One delay topic per distinct delay of a webhook retry schedule. */
export function webhookRetryTopics(partitions: number, retryDelaysMs: readonly number[]): TopicSpec[] {
  return [...new Set(retryDelaysMs)].map((delayMs) => ({ topic: webhookRetryTopic(delayMs), partitions, delayMs }));
}

/** Every topic of docs/architecture.md, created at boot with the configured partition count. */
export function pipelineTopics(
  partitions: number,
  webhookRetryDelaysMs: readonly number[] = WEBHOOK_RETRY_STEPS.map((step) => step.delayMs),
): TopicSpec[] {
  const plain = Object.values(TOPICS).map((topic) => ({ topic, partitions }));
  // The webhook retry topics of the configured schedule (WEBHOOK_RETRY_SCHEDULE; the default steps
  // above otherwise).
  const retries = webhookRetryTopics(partitions, webhookRetryDelaysMs);
  return [...plain, ...retries, ...crmTopics(CRM_RETRY_STEPS, partitions)];
}

export const CALCULATION_REQUESTS_TOPIC = TOPICS.calculationRequests;

export interface CalculationRequestMessage {
  schema_version: 1;
  job_id: string;
  organization_id: string;
}

export const REPROCESS_REQUESTS_TOPIC = TOPICS.reprocessRequests;

/** A reprocessing job as it travels on reprocess.requests (keyed by job id; the job document holds the rest). */
export interface ReprocessRequestMessage {
  schema_version: 1;
  job_id: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
}

/** CRM sync retry steps (CRM_RETRY_SCHEDULE's default), one delay topic each: `crm.retry.<step>`. */
export const CRM_RETRY_STEPS: ReadonlyArray<{ name: string; delayMs: number }> = WEBHOOK_RETRY_STEPS;

export const CRM_SYNC_REQUESTS_TOPIC = TOPICS.crmSyncRequests;

/** A manual sync as it travels on crm.sync.requests (keyed by lead id): the api's `POST /api/crm/:id/sync/:leadId` produces it. */
export interface CrmManualSyncMessage {
  schema_version: 1;
  kind: 'manual';
  message_id: string;
  sync_id: string;
  lead_id: string;
  connection_id: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  requested_by: string;
  requested_at: string;
}

export const crmRetryTopic = (step: string): string => `crm.retry.${step}`;

/** The delay topics of a CRM retry schedule (the crm-sync stage creates those of its configured schedule). */
export function crmTopics(steps: ReadonlyArray<{ name: string; delayMs: number }>, partitions: number): TopicSpec[] {
  // A delay that repeats in the schedule shares its topic.
  const distinct = [...new Map(steps.map((step) => [step.name, step])).values()];
  return distinct.map((step) => ({ topic: crmRetryTopic(step.name), partitions, delayMs: step.delayMs }));
}
