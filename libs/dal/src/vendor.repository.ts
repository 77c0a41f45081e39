/**
 * Vendors: the lead sources of an organization. Their ids are UUIDs because the funnel API
 * names vendors by UUID. A vendor serves both environments (it gets a vk_test_ key
 * and a vk_live_ key), so it is scoped by organization only.
 */
import { randomUUID } from 'node:crypto';
import type { TenantContext } from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';
import { COLLECTIONS, toDocument, toRecord, type Stored } from './collections';
import type { OutboxEntry } from './lead.repository';

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

/**
 * A vendor as stored: the record, plus the events of its last state change until they are
 * produced (an outbox, as leads have, so a crash between the write and the produce loses nothing:
 * the OutboxSweeper produces what is older than a few seconds).
 */
type VendorDocument = Stored<Vendor> & { outbox?: OutboxEntry[]; outbox_at?: string | null };

/** A vendor whose state change left events to produce. */
export interface VendorWithOutbox {
  vendor: Vendor;
  outbox: OutboxEntry[];
  outboxAt: string | null;
}

/** Vendors stored before `cost_per_lead` existed read it as null. */
const withDefaults = (vendor: Vendor): Vendor => {
  const { outbox: _outbox, outbox_at: _at, ...rest } = vendor as Vendor & { outbox?: unknown; outbox_at?: unknown };
  return { ...rest, cost_per_lead: vendor.cost_per_lead ?? null };
};

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
    const doc = await this.collection.findOneAndUpdate(
      { _id: id, organization_id: tenant.organizationId },
      { $set: set },
    );
    return doc ? withDefaults(toRecord<Vendor>(doc)) : null;
  }

  /** DELETE /vendors/:id. Returns whether the organization had the vendor. */
  async delete(tenant: TenantContext, id: string): Promise<boolean> {
    return (await this.collection.deleteOne({ _id: id, organization_id: tenant.organizationId })) === 1;
  }

  /**
   * Enables or disables the vendor, with the events of the change in its outbox, in one write.
   * Null when the organization has no such vendor or it is in that state already (so two
   * concurrent requests make one change and one event).
   */
  async setEnabled(
    tenant: TenantContext,
    id: string,
    enabled: boolean,
    now: Date,
    events: (vendor: Vendor) => OutboxEntry[],
  ): Promise<VendorWithOutbox | null> {
    const current = await this.findById(tenant, id);
    if (!current || current.enabled === enabled) return null;
    const outbox = events({ ...current, enabled, updated_at: now });
    const outboxAt = outbox.length > 0 ? now.toISOString() : null;
    const doc = await this.collection.findOneAndUpdate(
      { _id: id, organization_id: tenant.organizationId, enabled: !enabled },
      { $set: { enabled, updated_at: now, outbox: outbox as unknown as never, outbox_at: outboxAt } },
    );
    return doc ? { vendor: withDefaults(toRecord<Vendor>(doc)), outbox, outboxAt } : null;
  }

  /** Marks the outbox produced, unless a later change has filled it again. */
  async clearOutbox(tenant: TenantContext, id: string, outboxAt: string): Promise<void> {
    await this.collection.updateOne(
      { _id: id, organization_id: tenant.organizationId, outbox_at: outboxAt },
      { $set: { outbox: [], outbox_at: null } },
    );
  }

  /** Vendors (of any organization: maintenance) whose outbox is older than the cutoff. */
  async staleOutboxes(
    cutoff: string,
    limit: number,
  ): Promise<Array<{ id: string; organizationId: string; outbox: OutboxEntry[]; outboxAt: string }>> {
    const docs = await this.collection.find({ outbox_at: { $lt: cutoff } }, { limit });
    return docs.map((doc) => ({
      id: doc._id,
      organizationId: doc.organization_id,
      outbox: doc.outbox ?? [],
      outboxAt: String(doc.outbox_at),
    }));
  }
}
