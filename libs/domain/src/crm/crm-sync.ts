/**
 * CRM syncs as stored (collection `crm_syncs`), the retry schedule, and what the syncs of a lead
 * make of its crm fields (crm_sync_status, crm_id, crm_synced_at of the lead).
 */
import type { Environment } from '../tenant';
import { formatRetryDelay, parseRetrySchedule } from '../webhooks/retry-schedule';
import type { CrmConnectionType } from './crm-connection';
import type { CrmSyncState, PersistedCrmSyncActor } from './crm-sync.machine';

export interface CrmSyncRecord {
  /** `crmsync_<lead id>_<connection id>`: one sync per (lead, connection), whatever redelivers. */
  _id: string;
  organization_id: string;
  environment: Environment;
  lead_id: string;
  connection_id: string;
  crm_type: CrmConnectionType;
  /** The route target's order: the first target's CRM id is the lead's crm_id. */
  target_index: number;
  owner: string | null;
  queue: string | null;
  status: CrmSyncState;
  actor: PersistedCrmSyncActor;
  crm_id: string | null;
  crm_record_url: string | null;
  synced_at: string | null;
  last_error: string | null;
  attempts: number;
  next_attempt_at: string | null;
  /** Ids of the messages (routed lead, retries, manual requests) already applied. */
  applied_messages: string[];
  created_at: string;
  updated_at: string;
  [key: string]: unknown;
}

export function crmSyncId(leadId: string, connectionId: string): string {
  return `crmsync_${leadId}_${connectionId}`;
}

/** `1m,5m,30m,2h,24h` (the webhook retry schedule, which CRM syncs share by default). */
export const DEFAULT_CRM_RETRY_SCHEDULE = '1m,5m,30m,2h,24h';

export interface CrmRetryStep {
  /** The delay in its largest whole unit (`5m`), also the name of its delay topic (`crm.retry.5m`). */
  name: string;
  delayMs: number;
}

/**
 * Parses CRM_RETRY_SCHEDULE with the webhook schedule's reader, so both variables take the same
 * text (`500ms`, `30s`, `5m`, `2h`, `1d`, comma-separated; a delay may repeat). Each step is named
 * by its delay in the largest whole unit (`1d` → `24h`), which also names its delay topic, so
 * repeated delays share one topic. Throws with the reason.
 */
export function parseCrmRetrySchedule(text: string): CrmRetryStep[] {
  return parseRetrySchedule(text).map((delayMs) => ({ name: formatRetryDelay(delayMs), delayMs }));
}

/**
 * The step of the next attempt after `failedAttempts` failures, or null when the schedule is
 * used up. A Retry-After longer than that step's delay moves on to the first step at least as
 * long (the CRM asked for it; the schedule stays bounded); longer than every step: the last one.
 */
export function nextRetryStep(
  schedule: CrmRetryStep[],
  failedAttempts: number,
  retryAfterMs: number | null,
): { step: CrmRetryStep; index: number } | null {
  let index = failedAttempts - 1;
  if (index < 0 || index >= schedule.length) return null;
  if (retryAfterMs !== null && retryAfterMs > schedule[index]!.delayMs) {
    const longer = schedule.findIndex((step, at) => at >= index && step.delayMs >= retryAfterMs);
    index = longer === -1 ? schedule.length - 1 : longer;
  }
  return { step: schedule[index]!, index };
}

/** The lead's crm fields from its syncs (docs/crm.md "The lead's crm fields"). */
export function leadCrmFields(syncs: Array<Pick<CrmSyncRecord, 'status' | 'crm_id' | 'synced_at' | 'target_index'>>): {
  crm_sync_status: 'pending' | 'synced' | 'failed' | 'not_applicable';
  crm_id: string | null;
  crm_synced_at: string | null;
} {
  if (syncs.length === 0) return { crm_sync_status: 'not_applicable', crm_id: null, crm_synced_at: null };
  const inProgress = syncs.some(
    (sync) => sync.status === 'pending' || sync.status === 'syncing' || sync.status === 'retry_scheduled',
  );
  const failed = syncs.some((sync) => sync.status === 'failed');
  const synced = syncs
    .filter((sync) => sync.status === 'synced' || sync.crm_id !== null)
    .sort((a, b) => a.target_index - b.target_index);
  const primary = synced[0];
  const latest =
    syncs
      .map((sync) => sync.synced_at)
      .filter((at): at is string => at !== null)
      .sort()
      .at(-1) ?? null;
  return {
    crm_sync_status: inProgress ? 'pending' : failed ? 'failed' : 'synced',
    crm_id: primary?.crm_id ?? null,
    crm_synced_at: latest,
  };
}
