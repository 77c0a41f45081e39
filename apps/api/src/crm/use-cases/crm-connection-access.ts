/** What the CRM connection use cases share: finding a connection by id and checking the URLs it calls. */
import type { CrmConnectionRepository } from '@leadstream/dal';
import {
  DomainError,
  type CrmConnectionRecord,
  type CrmSettings,
  type ErrorDetail,
  type TenantContext,
} from '@leadstream/domain';
import { checkTarget, type OutboundOptions } from '@leadstream/runtime';

/** How connection URLs are checked: WEBHOOK_ALLOW_INSECURE_TARGETS and the name resolution (tests pass their own). */
export type CrmTargetOptions = { allowInsecureTargets: boolean } & Pick<OutboundOptions, 'resolve'>;

const CONNECTION_ID = /^crm_[A-Za-z0-9]{1,64}$/;

export async function findCrmConnection(
  deps: { connections: Pick<CrmConnectionRepository, 'findById'> },
  tenant: TenantContext,
  id: string,
): Promise<CrmConnectionRecord> {
  const record = CONNECTION_ID.test(id) ? await deps.connections.findById(tenant, id) : null;
  if (!record) throw new DomainError('NOT_FOUND', 'CRM connection not found');
  return record;
}

/** The settings that name a URL leadstream calls (a record URL template is only shown as a link). */
function calledUrls(settings: CrmSettings): Array<{ field: string; url: string }> {
  if ('url' in settings) return [{ field: 'settings.url', url: settings.url }];
  if ('instance_url' in settings)
    return [
      { field: 'settings.instance_url', url: settings.instance_url },
      { field: 'settings.token_url', url: settings.token_url },
    ];
  return [{ field: 'settings.base_url', url: settings.base_url }];
}

/**
 * Connection URLs must be https and resolve to public addresses, as webhook URLs must when saved
 * (the outbound module checks again on every call).
 */
export async function checkCrmTargets(outbound: CrmTargetOptions, settings: CrmSettings): Promise<void> {
  const details: ErrorDetail[] = [];
  for (const { field, url } of calledUrls(settings)) {
    const target = await checkTarget(url, outbound);
    if (!target.ok) details.push({ field, message: `${field} ${target.error}` });
  }
  if (details.length > 0) throw new DomainError('VALIDATION_ERROR', 'Invalid CRM connection', details);
}
