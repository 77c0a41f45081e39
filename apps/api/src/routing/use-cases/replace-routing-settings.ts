/** PUT /api/routing/settings: the whole settings; default targets must be CRM connections of the tenant. */
import type { RoutingSettingsRepository } from '@leadstream/dal';
import { parseRoutingSettings, type RoutingSettings, type TenantContext } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { checkConnections, invalidRouting, type CheckConnectionsDeps } from './routing-rule-access';

export interface ReplaceRoutingSettingsDeps extends CheckConnectionsDeps {
  settings: Pick<RoutingSettingsRepository, 'put'>;
  configCache: Pick<ConfigCache, 'changed'>;
  clock: () => Date;
}

export interface ReplaceRoutingSettingsInput {
  tenant: TenantContext;
  body: unknown;
}

export async function replaceRoutingSettings(
  deps: ReplaceRoutingSettingsDeps,
  input: ReplaceRoutingSettingsInput,
): Promise<RoutingSettings & { updated_at: string }> {
  const { tenant } = input;
  const parsed = parseRoutingSettings(input.body);
  if (!parsed.ok) throw invalidRouting(parsed.details, 'routing settings');
  await checkConnections(deps, tenant, parsed.value.default_targets, 'default_targets', 'routing settings');
  const stored = await deps.settings.put(tenant.organizationId, parsed.value, deps.clock().toISOString());
  await deps.configCache.changed(tenant.organizationId, 'routing_settings');
  return stored;
}
