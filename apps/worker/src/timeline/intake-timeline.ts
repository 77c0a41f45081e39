/**
 * The intake stages' timeline entries (docs/timeline.md): after a stage decides a command, the
 * lead as the batch holds it gets the stage's entry (when the batch entered the stage, when the
 * stage was done with this lead, what it decided), and the validate stage that creates the lead
 * also its `received` entry. The entries go with the lead's single write of the batch: no write
 * of their own.
 */
import {
  appendTimelineEntry,
  timelineEntry,
  timelineOf,
  type LeadRecord,
  type TimelineStage,
} from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import type { LeadCommandMessage } from '@leadstream/schemas';
import type { LeadBatch } from '../batch/lead-batch';

/** The intake stages (by stage name) and the timeline stage each records. */
const INTAKE_STAGES: Readonly<Record<string, TimelineStage>> = {
  validate: 'validated',
  dedup: 'deduplicated',
  enrich: 'enriched',
  route: 'routed',
};

/** The timeline stage a lead stage records, or undefined for a stage that records none. */
export function intakeTimelineStage(stageName: string): TimelineStage | undefined {
  return Object.prototype.hasOwnProperty.call(INTAKE_STAGES, stageName) ? INTAKE_STAGES[stageName] : undefined;
}

/**
 * Adds the stage's entry to the lead the command decided, if the stage changed it (a command that
 * changed nothing has no entry). `before`: the lead before the decision (null: the stage created it).
 */
export function recordIntakeStage(
  batch: LeadBatch,
  stage: TimelineStage,
  message: LeadCommandMessage,
  before: LeadRecord | null,
  record: Pick<LogRecord, 'timestamp'>,
  enteredAt: Date,
  finishedAt: Date,
): void {
  const tenant = { organizationId: message.organization_id, environment: message.environment };
  const after = batch.get(tenant, message.lead_id);
  if (!after || after === before) return;
  let lead = after;
  if (!before && timelineOf(lead).length === 0) {
    // Received: from the API's receipt of the submission until its command was on the log.
    const submitted = Date.parse(message.submitted_at);
    const logged = Number.isFinite(record.timestamp) && record.timestamp > 0 ? record.timestamp : submitted;
    lead = appendTimelineEntry(
      lead,
      timelineEntry('received', 'received', message.submitted_at, new Date(Math.max(submitted, logged)), {
        vendor_id: lead.vendor_id,
      }),
    );
  }
  const { outcome, detail } = describe(stage, after);
  batch.put(appendTimelineEntry(lead, timelineEntry(stage, outcome, enteredAt, finishedAt, detail)), []);
}

/** What the stage decided about the lead, in words and facts. */
function describe(stage: TimelineStage, lead: LeadRecord): { outcome: string; detail: Record<string, unknown> } {
  const rejected = lead.status === 'rejected' || lead.status === 'duplicate';
  const reason = lead.rejection_reason ? { rejection_reason: lead.rejection_reason } : {};
  // A lead stored before `flags` existed has none.
  const leadFlags: readonly string[] = Array.isArray(lead.flags) ? lead.flags : [];
  const flags = leadFlags.length > 0 ? { flags: leadFlags } : {};
  switch (stage) {
    case 'validated':
      return {
        outcome: rejected ? 'rejected' : lead.validation_status,
        detail: { validation_status: lead.validation_status, ...flags, ...reason },
      };
    case 'deduplicated':
      return {
        outcome: lead.duplicate_of ? (rejected ? 'duplicate' : 'linked') : rejected ? 'rejected' : 'unique',
        detail: {
          dedup_status: lead.dedup_status,
          ...(lead.duplicate_of ? { duplicate_of: lead.duplicate_of, similarity_score: lead.similarity_score } : {}),
          ...reason,
        },
      };
    case 'enriched':
      return {
        outcome: rejected ? 'rejected' : lead.enrichment_status,
        detail: { enrichment_status: lead.enrichment_status, ...reason },
      };
    default: {
      const route = lead.routing ?? null;
      const targets = route?.targets ?? [];
      return {
        outcome: rejected
          ? 'rejected'
          : targets.length > 0
            ? 'routed'
            : !route && (lead['review_status'] === 'pending' || leadFlags.includes('manual_review'))
              ? 'held for review'
              : 'no target',
        detail: {
          status: lead.status,
          ...(route ? { rule_id: route.rule_id, reason: route.reason } : {}),
          targets: targets.map((target) => target.connection_id),
          ...flags,
        },
      };
    }
  }
}

/**
 * The lead with its `crm_synced` entry, after a crm-sync batch settled attempts of its syncs: from
 * when the batch took the lead's messages until the outcome (synced, failed, or a retry scheduled).
 */
export function withCrmSyncedEntry(
  lead: LeadRecord,
  syncs: ReadonlyArray<{
    connection_id: string;
    crm_type: string;
    status: string;
    attempts: number;
    crm_id: string | null;
  }>,
  enteredAt: Date,
  finishedAt: Date,
): LeadRecord {
  const status = lead.crm_sync_status;
  const outcome = status === 'pending' ? 'retry scheduled' : status;
  return appendTimelineEntry(
    lead,
    timelineEntry('crm_synced', outcome, enteredAt, finishedAt, {
      syncs: syncs.map((sync) => ({
        connection_id: sync.connection_id,
        crm_type: sync.crm_type,
        status: sync.status,
        attempts: sync.attempts,
        crm_id: sync.crm_id,
      })),
    }),
  );
}
