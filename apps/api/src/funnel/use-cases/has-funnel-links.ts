/** GET /api/vendor-funnel-links/has-links: whether the caller sees any link. */
import { scopeOfCaller, type FunnelCallerInput, type FunnelScopeDeps } from './funnel-access';

export type HasFunnelLinksDeps = FunnelScopeDeps;
export type HasFunnelLinksInput = FunnelCallerInput;

export async function hasFunnelLinks(deps: HasFunnelLinksDeps, input: HasFunnelLinksInput): Promise<boolean> {
  return (await scopeOfCaller(deps, input)).links.length > 0;
}
