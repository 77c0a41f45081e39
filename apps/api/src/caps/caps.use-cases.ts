/**
 * The use cases of volume caps (docs/caps.md): list, create, get, change, delete, usage, and what
 * the vendor portal shows a vendor. Every write is announced through the ConfigCache, so the enrich
 * stage counts the next lead with it.
 */
import { randomUUID } from 'node:crypto';
import type { CapCounterRepository, CapRepository, ConfigResource, CustomFieldRepository, Dal } from '@leadstream/dal';
import {
  capPeriodAt,
  DomainError,
  isValidTimeZone,
  parseCapCreate,
  parseCapPatch,
  type CapSettings,
  type ErrorDetail,
  type TenantContext,
} from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';

export type CapResource = ConfigResource<CapSettings>;

export interface CapUsage {
  cap_id: string;
  period_start: string;
  period_end: string;
  count: number;
  maximum: number;
  remaining: number;
}

export interface CapsUseCaseDeps {
  caps: CapRepository;
  counters: Pick<CapCounterRepository, 'count'>;
  vendors: Pick<Dal['vendors'], 'findById'>;
  organizations: Pick<Dal['organizations'], 'get'>;
  customFields: Pick<CustomFieldRepository, 'list'>;
  configCache: Pick<ConfigCache, 'changed'>;
  clock: () => Date;
}

export const capNotFound = (): DomainError => new DomainError('NOT_FOUND', 'Cap not found');
const invalidCap = (details: ErrorDetail[]): DomainError => new DomainError('VALIDATION_ERROR', 'Invalid cap', details);

function capId(): string {
  return `cap_${randomUUID().replace(/-/g, '')}`;
}

/** The organization's time zone when its settings name one, UTC otherwise. */
async function defaultTimeZone(deps: CapsUseCaseDeps, tenant: TenantContext): Promise<string> {
  const organization = await deps.organizations.get(tenant);
  const settings = (organization?.settings ?? {}) as unknown as Record<string, unknown>;
  const zone = settings['time_zone'] ?? settings['timezone'];
  return isValidTimeZone(zone) ? zone : 'UTC';
}

async function checkVendor(deps: CapsUseCaseDeps, tenant: TenantContext, settings: CapSettings): Promise<void> {
  if (settings.vendor_id === null) return;
  if (!(await deps.vendors.findById(tenant, settings.vendor_id)))
    throw invalidCap([{ field: 'vendor_id', message: `${settings.vendor_id} is not a vendor of your organization` }]);
}

async function known(deps: CapsUseCaseDeps, tenant: TenantContext) {
  return { customFields: await deps.customFields.list(tenant.organizationId) };
}

export async function listCaps(deps: CapsUseCaseDeps, tenant: TenantContext): Promise<CapResource[]> {
  return deps.caps.list(tenant.organizationId);
}

export async function getCap(deps: CapsUseCaseDeps, tenant: TenantContext, id: string): Promise<CapResource> {
  const cap = await deps.caps.find(tenant.organizationId, id);
  if (!cap) throw capNotFound();
  return cap;
}

export async function createCap(deps: CapsUseCaseDeps, tenant: TenantContext, body: unknown): Promise<CapResource> {
  const parsed = parseCapCreate(body, await defaultTimeZone(deps, tenant), await known(deps, tenant));
  if (!parsed.ok) throw invalidCap(parsed.details);
  await checkVendor(deps, tenant, parsed.value);
  const cap = await deps.caps.create(tenant.organizationId, capId(), parsed.value, deps.clock().toISOString());
  await deps.configCache.changed(tenant.organizationId, 'caps');
  return cap;
}

export async function updateCap(
  deps: CapsUseCaseDeps,
  tenant: TenantContext,
  id: string,
  body: unknown,
): Promise<CapResource> {
  const current = await getCap(deps, tenant, id);
  const parsed = parseCapPatch(body, current, await known(deps, tenant));
  if (!parsed.ok) throw invalidCap(parsed.details);
  await checkVendor(deps, tenant, parsed.value);
  const updated = await deps.caps.update(tenant.organizationId, id, parsed.value, deps.clock().toISOString());
  if (!updated) throw capNotFound();
  await deps.configCache.changed(tenant.organizationId, 'caps');
  return updated;
}

export async function deleteCap(deps: CapsUseCaseDeps, tenant: TenantContext, id: string): Promise<void> {
  if (!(await deps.caps.delete(tenant.organizationId, id))) throw capNotFound();
  await deps.configCache.changed(tenant.organizationId, 'caps');
}

/** The cap's current period (live leads) and how much of it is used. */
export async function capUsage(
  deps: Pick<CapsUseCaseDeps, 'counters' | 'clock'>,
  organizationId: string,
  cap: CapResource,
): Promise<CapUsage> {
  const period = capPeriodAt(deps.clock(), cap.duration, cap.duration_units, cap.time_zone);
  const count = await deps.counters.count({ organizationId, capId: cap.id, period });
  return {
    cap_id: cap.id,
    period_start: period.start,
    period_end: period.end,
    count,
    maximum: cap.maximum,
    remaining: Math.max(0, cap.maximum - count),
  };
}

/** GET /api/vendor-portal/caps: the caps on the calling vendor, with where it stands in each. */
export async function vendorCaps(
  deps: Pick<CapsUseCaseDeps, 'caps' | 'counters' | 'clock'>,
  organizationId: string,
  vendorId: string,
): Promise<Array<Record<string, unknown>>> {
  const caps = (await deps.caps.list(organizationId)).filter(
    (cap) => cap.scope === 'vendor' && cap.vendor_id === vendorId,
  );
  return Promise.all(
    caps.map(async (cap) => {
      const usage = await capUsage(deps, organizationId, cap);
      return {
        id: cap.id,
        name: cap.name,
        enabled: cap.enabled,
        maximum: cap.maximum,
        duration: cap.duration,
        duration_units: cap.duration_units,
        time_zone: cap.time_zone,
        reason: cap.reason,
        period_start: usage.period_start,
        period_end: usage.period_end,
        count: usage.count,
        remaining: usage.remaining,
      };
    }),
  );
}
