import { formatRetryDelay } from '@leadstream/domain';
import type { TopicSpec } from '@leadstream/ports';

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

/** The pipeline's decisions about submissions, which the waiting api instance answers with (keyed by correlation id). */
export const DECISIONS_TOPIC = 'leads.decisions';

/** Webhook deliveries to make: the notify stage produces, the deliver stage consumes (keyed by webhook id). */
export const WEBHOOK_DELIVERIES_TOPIC = 'webhooks.deliveries';

/** The delay topic of one webhook retry delay, named by the delay (`webhooks.retry.5m`, `webhooks.retry.1s`). */
export function webhookRetryTopic(delayMs: number): string {
  return `webhooks.retry.${formatRetryDelay(delayMs)}`;
}

/** One delay topic per distinct delay of a webhook retry schedule. */
export function webhookRetryTopics(partitions: number, retryDelaysMs: readonly number[]): TopicSpec[] {
  return [...new Set(retryDelaysMs)].map((delayMs) => ({ topic: webhookRetryTopic(delayMs), partitions, delayMs }));
}

/** Every topic of docs/architecture.md, created at boot with the configured partition count. */
export function pipelineTopics(partitions: number, webhookRetryDelaysMs: readonly number[] = WEBHOOK_RETRY_STEPS.map((step) => step.delayMs)): TopicSpec[] {
  const plain = [
    'leads.submitted',
    'leads.validated',
    'leads.unique',
    'leads.enriched',
    'leads.routed',
    'leads.decisions',
    'leads.events',
    'webhooks.deliveries',
    'exports.requests',
    // Manual CRM syncs (POST /api/crm/:id/sync/:leadId), run by the crm-sync stage.
    'crm.sync.requests',
    // Webhook actions of enrichment rules, sent by the rule-webhook stage.
    'rules.webhooks',
    // Recalculation jobs of calculated fields, run by the recalculate stage.
    'calculations.requests',
    // ConfigCache: every process drops an organization's cached configuration on a newer version.
    'config.changed',
  ].map((topic) => ({ topic, partitions }));
  // The webhook retry topics of the configured schedule (WEBHOOK_RETRY_SCHEDULE; the default steps
  // above otherwise).
  const retries = webhookRetryTopics(partitions, webhookRetryDelaysMs);
  return [...plain, ...retries, ...crmTopics(CRM_RETRY_STEPS, partitions)];
}

/** Recalculation jobs of calculated fields (the API produces, the recalculate stage consumes; keyed by organization id). */
export const CALCULATION_REQUESTS_TOPIC = 'calculations.requests';

export interface CalculationRequestMessage {
  schema_version: 1;
  job_id: string;
  organization_id: string;
}

/** CRM sync retry steps (CRM_RETRY_SCHEDULE's default), one delay topic each: `crm.retry.<step>`. */
export const CRM_RETRY_STEPS: ReadonlyArray<{ name: string; delayMs: number }> = WEBHOOK_RETRY_STEPS;

/** Manual CRM syncs, keyed by lead id (the api produces, the crm-sync stage consumes). */
export const CRM_SYNC_REQUESTS_TOPIC = 'crm.sync.requests';

export const crmRetryTopic = (step: string): string => `crm.retry.${step}`;

/** The delay topics of a CRM retry schedule (the crm-sync stage creates those of its configured schedule). */
export function crmTopics(steps: ReadonlyArray<{ name: string; delayMs: number }>, partitions: number): TopicSpec[] {
  // A delay that repeats in the schedule shares its topic.
  const distinct = [...new Map(steps.map((step) => [step.name, step])).values()];
  return distinct.map((step) => ({ topic: crmRetryTopic(step.name), partitions, delayMs: step.delayMs }));
}
