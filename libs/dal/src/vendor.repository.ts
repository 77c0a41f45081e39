/**
 * Vendors: the lead sources of an organization. Their ids are UUIDs because the funnel API
 * (spec 2.15) names vendors by UUID. A vendor serves both environments (it gets a vk_test_ key
 * and a vk_live_ key), so it is scoped by organization only.
 */
import { randomUUID } from 'node:crypto';
import type { TenantContext } from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';
import { COLLECTIONS, toDocument, toRecord, type Stored } from './collections';

export type VendorType = 'inquiry' | 'application';
export const VENDOR_TYPES: readonly VendorType[] = ['inquiry', 'application'];

export interface Vendor {
  /** UUID */
  id: string;
  organization_id: string;
  name: string;
  type: VendorType;
  enabled: boolean;
  group: string | null;
  contact_email: string | null;
  /** What a lead from the vendor costs, for vendor ROI; null when not set (and on vendors stored before it existed). */
  cost_per_lead: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface CreateVendorInput {
  name: string;
  type: VendorType;
  group?: string | null;
  contact_email?: string | null;
  cost_per_lead?: number | null;
  enabled?: boolean;
}

type VendorDocument = Stored<Vendor>;

/** Vendors stored before `cost_per_lead` existed read it as null. */
const withDefaults = (vendor: Vendor): Vendor => ({ ...vendor, cost_per_lead: vendor.cost_per_lead ?? null });

export class VendorRepository {
  private readonly collection: Collection<VendorDocument>;

  constructor(store: DocumentStore) {
    this.collection = store.collection<VendorDocument>(COLLECTIONS.vendors);
  }

  async create(tenant: TenantContext, input: CreateVendorInput, now = new Date()): Promise<Vendor> {
    const vendor: Vendor = {
      id: randomUUID(),
      organization_id: tenant.organizationId,
      name: input.name,
      type: input.type,
      enabled: input.enabled ?? true,
      group: input.group ?? null,
      contact_email: input.contact_email ?? null,
      cost_per_lead: input.cost_per_lead ?? null,
      created_at: now,
      updated_at: now,
    };
    await this.collection.insertOne(toDocument(vendor));
    return vendor;
  }

  async findById(tenant: TenantContext, id: string): Promise<Vendor | null> {
    const doc = await this.collection.findOne({ _id: id, organization_id: tenant.organizationId });
    return doc ? withDefaults(toRecord<Vendor>(doc)) : null;
  }

  async list(tenant: TenantContext): Promise<Vendor[]> {
    const docs = await this.collection.find({ organization_id: tenant.organizationId }, { sort: { name: 1 } });
    return docs.map((doc) => withDefaults(toRecord<Vendor>(doc)));
  }

  /** PUT /vendors/:id: replaces the editable fields; null when the organization has no such vendor. */
  async update(tenant: TenantContext, id: string, input: CreateVendorInput, now = new Date()): Promise<Vendor | null> {
    const set: Record<string, string | number | boolean | null | Date> = {
      name: input.name,
      type: input.type,
      group: input.group ?? null,
      contact_email: input.contact_email ?? null,
      cost_per_lead: input.cost_per_lead ?? null,
      updated_at: now,
    };
    if (input.enabled !== undefined) set['enabled'] = input.enabled;
    const doc = await this.collection.findOneAndUpdate({ _id: id, organization_id: tenant.organizationId }, { $set: set });
    return doc ? withDefaults(toRecord<Vendor>(doc)) : null;
  }

  /** DELETE /vendors/:id. Returns whether the organization had the vendor. */
  async delete(tenant: TenantContext, id: string): Promise<boolean> {
    return (await this.collection.deleteOne({ _id: id, organization_id: tenant.organizationId })) === 1;
  }

  /** Returns the vendor after the change, or null when the organization has no such vendor. */
  async setEnabled(tenant: TenantContext, id: string, enabled: boolean, now = new Date()): Promise<Vendor | null> {
    const doc = await this.collection.findOneAndUpdate(
      { _id: id, organization_id: tenant.organizationId },
      { $set: { enabled, updated_at: now } },
    );
    return doc ? withDefaults(toRecord<Vendor>(doc)) : null;
  }
}
