/**
 * CRM sync stage: consumes leads.routed (the route stage's output), crm.sync.requests (manual
 * syncs, POST /api/crm/:id/sync/:leadId) and the retry delay topics crm.retry.<step>. Each
 * (lead, connection) is one sync actor (crm-sync.machine.ts). A batch:
 *
 * 1. reads the leads (whose `crm_syncs` hold their sync actors) and the connections at once;
 * 2. calls the CRMs (bounded in parallel; one sync's messages in order) through CrmClient;
 * 3. advances each sync with the outcome: synced, a retry on the next delay topic (Retry-After
 *    respected), or failed (a permanent error, or the schedule used up);
 * 4. writes each lead (version-checked) with its syncs and crm fields, and its events
 *    (lead.crm_synced, lead.crm_sync_failed) and retry records as the lead's outputs; the syncs
 *    are also written to the `crm_syncs` collection, which the API reads.
 *
 * The actors live in the lead, not only in `crm_syncs`, so that a sync's state, the lead's
 * fields and the outputs are one version-checked write: where the store and the log are
 * different systems the batch writer stores documents before leads, and a sync document stored
 * ahead of a lead write that lost its compare-and-set would make the batch decided again skip the
 * attempt and lose its event and retry.
 *
 * Effects are at-least-once (docs/pipeline.md): a batch decided again after a write conflict
 * reuses the outcomes of its calls, and a redelivered batch calls again, which the CRM answers as
 * an upsert (external id, email, Idempotency-Key): never a second record. Sandbox leads are never
 * synced: their crm_sync_status is not_applicable.
 */
import type { CrmConnectionRepository, LeadRepository } from '@leadstream/dal';
import type { CrmRetryStep } from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import type { CredentialsCipher, CrmClient, CrmSyncResult } from '@leadstream/runtime';
import type { BatchStage, StageBatchResult } from '../batch/batch-stage';
import { TOPICS } from './outputs';
import { syncLeadsToCrm } from './use-cases/sync-leads-to-crm';

export type { CrmRetryMessage } from './use-cases/sync-leads-to-crm';

export const LEADS_ROUTED_TOPIC = TOPICS.routed;

export interface CrmSyncStageDependencies {
  leads: Pick<LeadRepository, 'findManyById'>;
  connections: Pick<CrmConnectionRepository, 'findManyById'>;
  cipher: CredentialsCipher;
  client: Pick<CrmClient, 'sync'>;
  schedule: CrmRetryStep[];
  /** CRM calls of one batch in flight at once. */
  concurrency?: number;
  now?: () => Date;
}

export function crmSyncStage(deps: CrmSyncStageDependencies): BatchStage {
  const useCaseDeps = {
    leads: deps.leads,
    connections: deps.connections,
    cipher: deps.cipher,
    client: deps.client,
    schedule: deps.schedule,
    concurrency: deps.concurrency ?? 16,
    now: deps.now ?? (() => new Date()),
    // Outcomes kept for a batch decided again after a write conflict (the same attempt is not called twice).
    outcomes: new Map<string, CrmSyncResult>(),
  };
  return {
    name: 'crm-sync',
    topic: LEADS_ROUTED_TOPIC,
    process: (records: LogRecord[]): Promise<StageBatchResult> => syncLeadsToCrm(useCaseDeps, { records }),
  };
}
