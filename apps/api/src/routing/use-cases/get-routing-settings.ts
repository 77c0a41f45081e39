/** GET /api/routing/settings: the defaults until they are first set. */
import type { RoutingSettingsRepository } from '@leadstream/dal';
import type { RoutingSettings, TenantContext } from '@leadstream/domain';

export interface GetRoutingSettingsDeps {
  settings: Pick<RoutingSettingsRepository, 'get'>;
}

export interface GetRoutingSettingsInput {
  tenant: TenantContext;
}

export async function getRoutingSettings(
  deps: GetRoutingSettingsDeps,
  input: GetRoutingSettingsInput,
): Promise<RoutingSettings & { updated_at: string | null }> {
  return deps.settings.get(input.tenant.organizationId);
}
