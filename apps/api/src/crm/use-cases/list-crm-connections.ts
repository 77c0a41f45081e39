/** GET /api/crm/connections: the organization's connections with their sync counts. */
import type { CrmConnectionRepository, CrmSyncRepository } from '@leadstream/dal';
import type { CrmConnectionRecord, TenantContext } from '@leadstream/domain';

export type CrmConnectionStats = Awaited<ReturnType<CrmSyncRepository['connectionStats']>>;

export interface CrmConnectionWithStats {
  record: CrmConnectionRecord;
  stats: CrmConnectionStats;
}

export interface ListCrmConnectionsDeps {
  connections: Pick<CrmConnectionRepository, 'list'>;
  syncs: Pick<CrmSyncRepository, 'connectionStats'>;
}

export interface ListCrmConnectionsInput {
  tenant: TenantContext;
}

export async function listCrmConnections(
  deps: ListCrmConnectionsDeps,
  input: ListCrmConnectionsInput,
): Promise<CrmConnectionWithStats[]> {
  const records = await deps.connections.list(input.tenant);
  return Promise.all(
    records.map(async (record) => ({ record, stats: await deps.syncs.connectionStats(input.tenant, record._id) })),
  );
}
