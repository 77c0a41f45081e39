/**
 * POST /api/vendor-funnel-links: links an inquiry vendor to an application vendor. 404 for an
 * unknown vendor, 400 for a wrong type or a pair linked already; an API key links only its own vendor.
 */
import { randomUUID } from 'node:crypto';
import { FunnelLinkExistsError, type Dal, type FunnelLinkRepository } from '@leadstream/dal';
import { DomainError, parseFunnelLinkCreate, type ErrorDetail, type FunnelLink } from '@leadstream/domain';
import { invalidFunnelRequest, type FunnelCallerInput } from './funnel-access';

export interface CreateFunnelLinkDeps {
  vendors: Pick<Dal['vendors'], 'findById'>;
  links: Pick<FunnelLinkRepository, 'create'>;
  clock: () => Date;
}

export interface CreateFunnelLinkInput extends FunnelCallerInput {
  body: unknown;
}

export async function createFunnelLink(deps: CreateFunnelLinkDeps, input: CreateFunnelLinkInput): Promise<FunnelLink> {
  const parsed = parseFunnelLinkCreate(input.body);
  if (!parsed.ok) throw invalidFunnelRequest('Invalid funnel link', parsed.details);
  const link = parsed.value;
  const [inquiry, application] = await Promise.all([
    deps.vendors.findById(input.tenant, link.inquiryVendorId),
    deps.vendors.findById(input.tenant, link.applicationVendorId),
  ]);
  if (!inquiry || !application)
    throw new DomainError(
      'NOT_FOUND',
      `Vendor ${!inquiry ? link.inquiryVendorId : link.applicationVendorId} not found`,
    );
  const wrongTypes: ErrorDetail[] = [
    ...(inquiry.type === 'inquiry'
      ? []
      : [{ field: 'inquiryVendorId', message: `vendor ${inquiry.name} is not of type inquiry` }]),
    ...(application.type === 'application'
      ? []
      : [{ field: 'applicationVendorId', message: `vendor ${application.name} is not of type application` }]),
  ];
  if (wrongTypes.length > 0)
    throw invalidFunnelRequest(wrongTypes.map((detail) => detail.message).join('; '), wrongTypes);
  if (input.vendorId !== null && input.vendorId !== inquiry.id && input.vendorId !== application.id) {
    throw new DomainError('INSUFFICIENT_PERMISSIONS', 'An API key may link only its own vendor');
  }
  try {
    return await deps.links.create(input.tenant.organizationId, randomUUID(), link, deps.clock());
  } catch (error) {
    if (error instanceof FunnelLinkExistsError)
      throw invalidFunnelRequest('A funnel link for this vendor pair already exists', [
        { field: 'applicationVendorId', message: 'this vendor pair is linked already' },
      ]);
    throw error;
  }
}
