/**
 * GET /api/leads/:id/timeline (docs/timeline.md): the stages the lead passed, in order, each with
 * when it entered and left and what the stage decided. The intake and crm-sync entries are on the
 * lead (written with each stage's results); a webhook delivery of one of the lead's events is one
 * `webhook_delivered` entry from its creation until it ended delivered or failed (the deliver
 * stage's write). A delivery still waiting has no entry yet.
 */
import type { WebhookDeliveryRecord, WebhookDeliveryRepository } from '@leadstream/dal';
import { timelineEntry, timelineOf, type LeadTimelineEntry } from '@leadstream/domain';
import { findLead, type FindLeadDeps, type FindLeadInput } from './find-lead';

export interface GetLeadTimelineDeps {
  find: FindLeadDeps;
  deliveries: Pick<WebhookDeliveryRepository, 'forLead'>;
}

export async function getLeadTimeline(deps: GetLeadTimelineDeps, input: FindLeadInput): Promise<LeadTimelineEntry[]> {
  const lead = await findLead(deps.find, input);
  const deliveries = await deps.deliveries.forLead(input.tenant, lead._id);
  const entries = [...timelineOf(lead), ...deliveries.flatMap(deliveryEntry)];
  // In the order the stages started; a stable sort keeps entries that started together in stored order.
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.started_at.localeCompare(b.entry.started_at) || a.index - b.index)
    .map(({ entry }) => entry);
}

function deliveryEntry(delivery: WebhookDeliveryRecord): LeadTimelineEntry[] {
  if (!delivery.finished_at || (delivery.status !== 'delivered' && delivery.status !== 'failed')) return [];
  const context = delivery.actor.context;
  return [
    timelineEntry('webhook_delivered', delivery.status, delivery.created_at, delivery.finished_at, {
      webhook_id: delivery.webhook_id,
      delivery_id: delivery._id,
      event_type: delivery.event_type,
      attempts: context.attempts,
      response_status: context.responseStatus,
    }),
  ];
}
