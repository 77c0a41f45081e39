/**
 * Whose funnel a request sees: the tenant's vendors by type and the links between them (only links
 * whose vendors still exist with the right types). A vendor's API key sees only the links its
 * vendor is part of, and only the vendors of those links (and its own).
 */
import type { FunnelLinkRepository, Vendor, VendorRepository } from '@leadstream/dal';
import type { FunnelLink, TenantContext } from '@leadstream/domain';
import type { NamedFunnelScope } from './funnel.reports';

/** The scope, with the links as stored (ids, creation) and the tenant's vendors as read. */
export type ScopeWithLinks = Omit<NamedFunnelScope, 'links'> & { links: FunnelLink[]; vendors: Vendor[] };

export async function funnelScope(
  vendorsRepository: Pick<VendorRepository, 'list'>,
  linksRepository: Pick<FunnelLinkRepository, 'list'>,
  tenant: TenantContext,
  ownVendorId: string | null,
): Promise<ScopeWithLinks> {
  const vendors = await vendorsRepository.list(tenant);
  const byId = new Map(vendors.map((vendor) => [vendor.id, vendor]));
  let links = (await linksRepository.list(tenant.organizationId)).filter(
    (link) =>
      byId.get(link.inquiryVendorId)?.type === 'inquiry' && byId.get(link.applicationVendorId)?.type === 'application',
  );
  let inquiryVendorIds = vendors.filter((vendor) => vendor.type === 'inquiry').map((vendor) => vendor.id);
  let applicationVendorIds = vendors.filter((vendor) => vendor.type === 'application').map((vendor) => vendor.id);
  if (ownVendorId !== null) {
    links = links.filter((link) => link.inquiryVendorId === ownVendorId || link.applicationVendorId === ownVendorId);
    const involved = new Set([
      ownVendorId,
      ...links.flatMap((link) => [link.inquiryVendorId, link.applicationVendorId]),
    ]);
    inquiryVendorIds = inquiryVendorIds.filter((id) => involved.has(id));
    applicationVendorIds = applicationVendorIds.filter((id) => involved.has(id));
  }
  return {
    organizationId: tenant.organizationId,
    environment: tenant.environment,
    inquiryVendorIds,
    applicationVendorIds,
    links,
    vendors,
    vendorNames: new Map(vendors.map((vendor) => [vendor.id, vendor.name])),
  };
}
