/** POST /api/crm/connections/:id/test: calls the CRM without writing to it. */
import type { CrmConnectionRepository } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';
import { openCrmConnection, type CredentialsCipher, type CrmClient } from '@leadstream/runtime';
import { findCrmConnection } from './crm-connection-access';

export interface TestCrmConnectionDeps {
  connections: Pick<CrmConnectionRepository, 'findById'>;
  cipher: CredentialsCipher;
  client: Pick<CrmClient, 'test'>;
}

export interface TestCrmConnectionInput {
  tenant: TenantContext;
  connectionId: string;
}

export async function testCrmConnection(
  deps: TestCrmConnectionDeps,
  input: TestCrmConnectionInput,
): ReturnType<CrmClient['test']> {
  const record = await findCrmConnection(deps, input.tenant, input.connectionId);
  return deps.client.test(openCrmConnection(record, deps.cipher));
}
