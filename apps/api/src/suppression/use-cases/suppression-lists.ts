/** CRUD of suppression lists (docs/suppression-lists.md). Every change tells the configuration cache, so the intake checks the change from the next lead on. */
import type { SuppressionRepository } from '@leadstream/dal';
import {
  DomainError,
  newSuppressionListId,
  parseSuppressionListInput,
  type ErrorDetail,
  type SuppressionList,
  type SuppressionListInput,
  type TenantContext,
} from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';

export interface SuppressionListDeps {
  suppression: SuppressionRepository;
  configCache: Pick<ConfigCache, 'changed'>;
  clock: () => Date;
}

export const invalidSuppression = (details: ErrorDetail[]): DomainError =>
  new DomainError('VALIDATION_ERROR', 'The request is not valid', details);

export const suppressionListNotFound = (): DomainError => new DomainError('NOT_FOUND', 'Suppression list not found');

/** The list of the user's organization, or 404. */
export async function findSuppressionList(
  deps: Pick<SuppressionListDeps, 'suppression'>,
  tenant: TenantContext,
  id: string,
): Promise<SuppressionList> {
  const list = await deps.suppression.get(tenant.organizationId, id);
  if (!list) throw suppressionListNotFound();
  return list;
}

export async function createSuppressionList(
  deps: SuppressionListDeps,
  tenant: TenantContext,
  body: unknown,
): Promise<SuppressionList> {
  const parsed = parseSuppressionListInput(body, false);
  if (!parsed.ok) throw invalidSuppression(parsed.details);
  const input: SuppressionListInput = {
    name: parsed.value.name!,
    kind: parsed.value.kind!,
    action: parsed.value.action ?? 'reject',
    expires_after_days: parsed.value.expires_after_days ?? null,
    sandbox_only: parsed.value.sandbox_only ?? false,
    enabled: parsed.value.enabled ?? true,
  };
  const list = await deps.suppression.create(
    tenant.organizationId,
    newSuppressionListId(),
    input,
    deps.clock().toISOString(),
  );
  await deps.configCache.changed(tenant.organizationId, 'suppression_lists');
  return list;
}

export async function listSuppressionLists(
  deps: Pick<SuppressionListDeps, 'suppression'>,
  tenant: TenantContext,
  page: number,
  limit: number,
): Promise<{ lists: SuppressionList[]; total: number }> {
  const all = await deps.suppression.list(tenant.organizationId);
  return { lists: all.slice((page - 1) * limit, page * limit), total: all.length };
}

export async function updateSuppressionList(
  deps: SuppressionListDeps,
  tenant: TenantContext,
  id: string,
  body: unknown,
): Promise<SuppressionList> {
  const parsed = parseSuppressionListInput(body, true);
  if (!parsed.ok) throw invalidSuppression(parsed.details);
  const list = await deps.suppression.update(tenant.organizationId, id, parsed.value, deps.clock().toISOString());
  if (!list) throw suppressionListNotFound();
  await deps.configCache.changed(tenant.organizationId, 'suppression_lists');
  return list;
}

export async function deleteSuppressionList(
  deps: SuppressionListDeps,
  tenant: TenantContext,
  id: string,
): Promise<void> {
  if (!(await deps.suppression.delete(tenant.organizationId, id))) throw suppressionListNotFound();
  await deps.configCache.changed(tenant.organizationId, 'suppression_lists');
}
