/**
 * The vendor of leads entered by users (POST /leads without a vendor_id): one per organization,
 * named "Manual entry", created on first use. Its id is derived from the organization id (a
 * name-based UUID), so concurrent first uses on several api processes agree on one vendor: the
 * second insert hits the primary key and reads the first one's.
 */
import { createHash } from 'node:crypto';
import type { TenantContext } from '@leadstream/domain';
import { DuplicateKeyError, type DocumentStore } from '@leadstream/ports';
import { COLLECTIONS, toDocument } from './collections';
import type { Vendor } from './vendor.repository';

export const MANUAL_ENTRY_VENDOR_NAME = 'Manual entry';

/** A UUID (version 5 layout) from SHA-256 of the organization id: stable, unguessable without the id. */
export function manualEntryVendorId(organizationId: string): string {
  const hex = createHash('sha256').update(`leadstream:manual-entry-vendor:${organizationId}`).digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function ensureManualEntryVendor(
  store: DocumentStore,
  tenant: TenantContext,
  now = new Date(),
): Promise<string> {
  const id = manualEntryVendorId(tenant.organizationId);
  const vendors = store.collection<ReturnType<typeof toDocument<Vendor>>>(COLLECTIONS.vendors);
  if (await vendors.findOne({ _id: id, organization_id: tenant.organizationId })) return id;
  const vendor: Vendor = {
    id,
    organization_id: tenant.organizationId,
    name: MANUAL_ENTRY_VENDOR_NAME,
    type: 'inquiry',
    enabled: true,
    group: null,
    contact_email: null,
    cost_per_lead: null,
    created_at: now,
    updated_at: now,
  };
  try {
    await vendors.insertOne(toDocument(vendor));
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
  }
  return id;
}
