/**
 * POST /api/crm/:id/sync/:leadId: asks the crm-sync stage to sync one lead again now (a manual
 * message on crm.sync.requests); the stage makes the call, with its retries.
 */
import { randomUUID } from 'node:crypto';
import type { CrmConnectionRepository, CrmSyncRepository, LeadRepository } from '@leadstream/dal';
import { crmSyncId, DomainError, type CrmSyncRecord, type TenantContext } from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import { CRM_SYNC_REQUESTS_TOPIC, type CrmManualSyncMessage } from '@leadstream/runtime';
import { findCrmConnection } from './crm-connection-access';

export interface RequestCrmSyncDeps {
  connections: Pick<CrmConnectionRepository, 'findById'>;
  leads: Pick<LeadRepository, 'findById'>;
  syncs: Pick<CrmSyncRepository, 'findById'>;
  log: Pick<EventLog, 'produce'>;
  clock: () => Date;
}

export interface RequestCrmSyncInput {
  tenant: TenantContext;
  actor: { id: string };
  connectionId: string;
  leadId: string;
}

export interface RequestCrmSyncResult {
  syncId: string;
  leadId: string;
  connectionId: string;
  requestedAt: string;
  /** The sync as it was before this request, if the lead was synced to this connection before. */
  previous: CrmSyncRecord | null;
}

const LEAD_ID = /^lead_[A-Za-z0-9]{1,64}$/;

export async function requestCrmSync(
  deps: RequestCrmSyncDeps,
  input: RequestCrmSyncInput,
): Promise<RequestCrmSyncResult> {
  const { tenant } = input;
  const record = await findCrmConnection(deps, tenant, input.connectionId);
  const lead = LEAD_ID.test(input.leadId) ? await deps.leads.findById(tenant, input.leadId) : null;
  if (!lead || lead.deleted_at) throw new DomainError('LEAD_NOT_FOUND', 'Lead not found');
  if (!record.enabled)
    throw new DomainError('VALIDATION_ERROR', 'The CRM connection is disabled', [
      { field: 'id', message: 'the CRM connection is disabled' },
    ]);
  const syncId = crmSyncId(lead._id, record._id);
  const at = deps.clock().toISOString();
  const message: CrmManualSyncMessage = {
    schema_version: 1,
    kind: 'manual',
    message_id: `crmreq_${randomUUID().replace(/-/g, '')}`,
    sync_id: syncId,
    lead_id: lead._id,
    connection_id: record._id,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    requested_by: input.actor.id,
    requested_at: at,
  };
  try {
    await deps.log.produce(CRM_SYNC_REQUESTS_TOPIC, [{ key: lead._id, value: JSON.stringify(message) }]);
  } catch (error) {
    throw new DomainError(
      'SERVICE_UNAVAILABLE',
      `CRM syncs cannot be queued right now; try again (${error instanceof Error ? error.name : 'error'})`,
    );
  }
  const previous = await deps.syncs.findById(tenant, syncId);
  return { syncId, leadId: lead._id, connectionId: record._id, requestedAt: at, previous: previous ?? null };
}
