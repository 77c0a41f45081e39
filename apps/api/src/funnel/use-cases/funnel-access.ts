/** What the funnel use cases share: who is asking, and what they see (funnel.scope.ts). */
import type { Dal, FunnelLinkRepository } from '@leadstream/dal';
import { DomainError, type ErrorDetail, type TenantContext } from '@leadstream/domain';
import { funnelScope, type ScopeWithLinks } from '../funnel.scope';

/** The caller's tenant and, for an API key, its vendor: a key sees only links its vendor is part of. */
export interface FunnelCallerInput {
  tenant: TenantContext;
  vendorId: string | null;
}

export interface FunnelScopeDeps {
  vendors: Pick<Dal['vendors'], 'list'>;
  links: Pick<FunnelLinkRepository, 'list'>;
}

export function scopeOfCaller(deps: FunnelScopeDeps, caller: FunnelCallerInput): Promise<ScopeWithLinks> {
  return funnelScope(deps.vendors, deps.links, caller.tenant, caller.vendorId);
}

export const invalidFunnelRequest = (message: string, details: ErrorDetail[]): DomainError =>
  new DomainError('VALIDATION_ERROR', message, details);
