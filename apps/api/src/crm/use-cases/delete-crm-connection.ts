/** DELETE /api/crm/connections/:id: its pending syncs fail at their next attempt. */
import type { CrmConnectionRepository } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';
import { findCrmConnection } from './crm-connection-access';

export interface DeleteCrmConnectionDeps {
  connections: Pick<CrmConnectionRepository, 'findById' | 'delete'>;
}

export interface DeleteCrmConnectionInput {
  tenant: TenantContext;
  connectionId: string;
}

export async function deleteCrmConnection(
  deps: DeleteCrmConnectionDeps,
  input: DeleteCrmConnectionInput,
): Promise<void> {
  const record = await findCrmConnection(deps, input.tenant, input.connectionId);
  await deps.connections.delete(input.tenant, record._id);
}
