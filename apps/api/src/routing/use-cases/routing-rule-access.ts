/** What the routing use cases share: the errors, new rule ids, the names rule parsing checks against, the CRM connection check. */
import { randomUUID } from 'node:crypto';
import type { CustomFieldRepository, RoutingConfigReader } from '@leadstream/dal';
import {
  DomainError,
  routingConnectionRefs,
  type ErrorDetail,
  type RoutingDestination,
  type TenantContext,
} from '@leadstream/domain';

export const routingRuleNotFound = (): DomainError => new DomainError('NOT_FOUND', 'Routing rule not found');
export const invalidRouting = (details: ErrorDetail[], what = 'routing rule'): DomainError =>
  new DomainError('VALIDATION_ERROR', `Invalid ${what}`, details);

export function routingRuleId(): string {
  return `rroute_${randomUUID().replace(/-/g, '')}`;
}

export interface KnownRoutingNamesDeps {
  customFields: Pick<CustomFieldRepository, 'list'>;
}

/** What rule parsing checks names against: the organization's custom fields. */
export async function knownRoutingNames(deps: KnownRoutingNamesDeps, organizationId: string) {
  return { customFields: await deps.customFields.list(organizationId) };
}

export interface CheckConnectionsDeps {
  routing: Pick<RoutingConfigReader, 'unknownConnectionIds'>;
}

/** 400 naming each target whose connection is not one of the tenant's CRM connections. */
export async function checkConnections(
  deps: CheckConnectionsDeps,
  tenant: TenantContext,
  targets: readonly RoutingDestination[],
  path: string,
  what?: string,
): Promise<void> {
  const refs = routingConnectionRefs(targets, path);
  const unknown = new Set(
    await deps.routing.unknownConnectionIds(
      tenant,
      refs.map((ref) => ref.connection_id),
    ),
  );
  const details = refs
    .filter((ref) => unknown.has(ref.connection_id))
    .map((ref) => ({
      field: ref.field,
      message: `${ref.connection_id} is not a CRM connection of your organization (GET /api/crm/connections lists them)`,
    }));
  if (details.length > 0) throw invalidRouting(details, what);
}
