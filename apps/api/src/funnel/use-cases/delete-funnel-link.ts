/** DELETE /api/vendor-funnel-links/:id: a link the caller sees (an API key: one of its vendor's). */
import type { FunnelLinkRepository } from '@leadstream/dal';
import { DomainError } from '@leadstream/domain';
import type { FunnelCallerInput } from './funnel-access';

export interface DeleteFunnelLinkDeps {
  links: Pick<FunnelLinkRepository, 'find' | 'delete'>;
}

export interface DeleteFunnelLinkInput extends FunnelCallerInput {
  linkId: string;
}

export async function deleteFunnelLink(deps: DeleteFunnelLinkDeps, input: DeleteFunnelLinkInput): Promise<void> {
  const organizationId = input.tenant.organizationId;
  const link = await deps.links.find(organizationId, input.linkId);
  const visible =
    link !== null &&
    (input.vendorId === null || input.vendorId === link.inquiryVendorId || input.vendorId === link.applicationVendorId);
  if (!visible || !(await deps.links.delete(organizationId, link.id)))
    throw new DomainError('NOT_FOUND', 'Funnel link not found');
}
