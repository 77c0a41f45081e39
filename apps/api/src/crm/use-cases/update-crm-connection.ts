/**
 * PATCH /api/crm/connections/:id: change name, enabled, settings or credentials. Same id, so
 * routing rules that name the connection keep working; a new updated_at (always later than the one
 * read) also starts a new cached OAuth token (the connectors key their cache by id and updated_at).
 */
import type { CrmConnectionRepository, CrmSyncRepository } from '@leadstream/dal';
import {
  credentialFieldsSet,
  DomainError,
  parseCrmConnectionPatch,
  type CrmCredentials,
  type CrmSettings,
  type TenantContext,
} from '@leadstream/domain';
import { crmCredentialsContext, openCrmConnection, type CredentialsCipher } from '@leadstream/runtime';
import { checkCrmTargets, findCrmConnection, type CrmTargetOptions } from './crm-connection-access';
import type { CrmConnectionWithStats } from './list-crm-connections';

export interface UpdateCrmConnectionDeps {
  connections: Pick<CrmConnectionRepository, 'findById' | 'update'>;
  syncs: Pick<CrmSyncRepository, 'connectionStats'>;
  cipher: CredentialsCipher;
  outbound: CrmTargetOptions;
  clock: () => Date;
}

export interface UpdateCrmConnectionInput {
  tenant: TenantContext;
  connectionId: string;
  body: unknown;
}

const MAX_ATTEMPTS = 3;

/** `now`, or a millisecond after `previous` when the clock has not passed it: every change gets a new updated_at. */
export function laterThan(previous: string, now: Date): string {
  const floor = Date.parse(previous) + 1;
  return new Date(Math.max(now.getTime(), Number.isNaN(floor) ? 0 : floor)).toISOString();
}

export async function updateCrmConnection(
  deps: UpdateCrmConnectionDeps,
  input: UpdateCrmConnectionInput,
): Promise<CrmConnectionWithStats> {
  const { tenant } = input;
  // Checked against the connection as read and written only if it is still so: a PATCH of the
  // settings racing one of the credentials cannot store a pair neither checked (the loser reads
  // the winner's write and is checked again).
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const record = await findCrmConnection(deps, tenant, input.connectionId);
    let credentials: CrmCredentials | null;
    try {
      credentials = openCrmConnection(record, deps.cipher).credentials;
    } catch {
      credentials = null;
    }
    const parsed = parseCrmConnectionPatch(input.body, {
      type: record.type,
      settings: JSON.parse(record.settings_json) as CrmSettings,
      credentials,
    });
    if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Invalid CRM connection', parsed.details);
    const { patch } = parsed;
    if (patch.settings) await checkCrmTargets(deps.outbound, patch.settings);
    const updated = await deps.connections.update(tenant, record._id, record.updated_at, {
      updated_at: laterThan(record.updated_at, deps.clock()),
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(patch.settings ? { settings_json: JSON.stringify(patch.settings) } : {}),
      ...(patch.credentials
        ? {
            credentials_encrypted: deps.cipher.encryptJson(
              patch.credentials,
              crmCredentialsContext(tenant.organizationId, record._id),
            ),
            credential_fields: credentialFieldsSet(patch.credentials),
          }
        : {}),
    });
    if (updated) return { record: updated, stats: await deps.syncs.connectionStats(tenant, updated._id) };
  }
  throw new DomainError(
    'SERVICE_UNAVAILABLE',
    'The CRM connection kept changing while this change was being saved; try again',
  );
}
