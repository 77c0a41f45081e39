/** GET /api/vendor-funnel-links: the links the caller sees, with the names of their vendors. */
import type { ScopeWithLinks } from '../funnel.scope';
import { scopeOfCaller, type FunnelCallerInput, type FunnelScopeDeps } from './funnel-access';

export type ListFunnelLinksDeps = FunnelScopeDeps;
export type ListFunnelLinksInput = FunnelCallerInput;

export async function listFunnelLinks(
  deps: ListFunnelLinksDeps,
  input: ListFunnelLinksInput,
): Promise<Pick<ScopeWithLinks, 'links' | 'vendorNames'>> {
  const { links, vendorNames } = await scopeOfCaller(deps, input);
  return { links, vendorNames };
}
