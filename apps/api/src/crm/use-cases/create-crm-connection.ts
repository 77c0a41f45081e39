/** POST /api/crm/connections: a new connection, its credentials encrypted at rest (AES-256-GCM). */
import { randomUUID } from 'node:crypto';
import type { CrmConnectionRepository } from '@leadstream/dal';
import {
  credentialFieldsSet,
  DomainError,
  parseCrmConnectionInput,
  type CrmConnectionRecord,
  type TenantContext,
} from '@leadstream/domain';
import { crmCredentialsContext, type CredentialsCipher } from '@leadstream/runtime';
import { checkCrmTargets, type CrmTargetOptions } from './crm-connection-access';

export interface CreateCrmConnectionDeps {
  connections: Pick<CrmConnectionRepository, 'insert'>;
  cipher: CredentialsCipher;
  outbound: CrmTargetOptions;
  clock: () => Date;
}

export interface CreateCrmConnectionInput {
  tenant: TenantContext;
  body: unknown;
}

export async function createCrmConnection(
  deps: CreateCrmConnectionDeps,
  input: CreateCrmConnectionInput,
): Promise<CrmConnectionRecord> {
  const parsed = parseCrmConnectionInput(input.body);
  if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Invalid CRM connection', parsed.details);
  const connection = parsed.input;
  await checkCrmTargets(deps.outbound, connection.settings);
  const { tenant } = input;
  const id = `crm_${randomUUID().replace(/-/g, '')}`;
  const at = deps.clock().toISOString();
  const record: CrmConnectionRecord = {
    _id: id,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    name: connection.name,
    type: connection.type,
    enabled: connection.enabled,
    settings_json: JSON.stringify(connection.settings),
    credentials_encrypted: deps.cipher.encryptJson(
      connection.credentials,
      crmCredentialsContext(tenant.organizationId, id),
    ),
    credential_fields: credentialFieldsSet(connection.credentials),
    created_at: at,
    updated_at: at,
  };
  await deps.connections.insert(record);
  return record;
}
