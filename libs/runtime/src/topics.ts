import type { TopicSpec } from '@leadstream/ports';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Webhook retry steps of spec 3.2 / 6.3, one delay topic each (DESIGN.md section 4). */
export const WEBHOOK_RETRY_STEPS = [
  { name: '1m', delayMs: MINUTE },
  { name: '5m', delayMs: 5 * MINUTE },
  { name: '30m', delayMs: 30 * MINUTE },
  { name: '2h', delayMs: 2 * HOUR },
  { name: '24h', delayMs: 24 * HOUR },
] as const;

/** Every topic of DESIGN.md section 4, created at boot with the configured partition count. */
export function pipelineTopics(partitions: number): TopicSpec[] {
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
  const retries = WEBHOOK_RETRY_STEPS.map((step) => ({ topic: `webhooks.retry.${step.name}`, partitions, delayMs: step.delayMs }));
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
  return steps.map((step) => ({ topic: crmRetryTopic(step.name), partitions, delayMs: step.delayMs }));
}
