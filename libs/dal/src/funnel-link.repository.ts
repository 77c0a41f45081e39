/**
 * Funnel links of an organization (docs/analytics.md "Funnel"): which inquiry vendor's leads may
 * convert at which application vendor, within how many hours. A link serves both environments, as
 * vendors do. One link per vendor pair (unique index).
 */
import type { FunnelLink, FunnelLinkInput } from '@leadstream/domain';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@leadstream/ports';

export const FUNNEL_LINKS_COLLECTION = 'vendor_funnel_links';

interface FunnelLinkDocument {
  _id: string;
  organization_id: string;
  inquiry_vendor_id: string;
  application_vendor_id: string;
  time_window_hours: number;
  created_at: string;
}

export class FunnelLinkExistsError extends Error {
  constructor() {
    super('a funnel link for this vendor pair already exists');
    this.name = 'FunnelLinkExistsError';
  }
}

const toLink = (doc: FunnelLinkDocument): FunnelLink => ({
  id: doc._id,
  inquiryVendorId: doc.inquiry_vendor_id,
  applicationVendorId: doc.application_vendor_id,
  timeWindowHours: doc.time_window_hours,
  createdAt: doc.created_at,
});

export class FunnelLinkRepository {
  private readonly links: Collection<FunnelLinkDocument>;

  constructor(store: DocumentStore) {
    this.links = store.collection<FunnelLinkDocument>(FUNNEL_LINKS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store.collection(FUNNEL_LINKS_COLLECTION).createIndex({
      keys: { organization_id: 1, inquiry_vendor_id: 1, application_vendor_id: 1 },
      name: 'organization_pair_unique',
      unique: true,
    });
  }

  /** Oldest first. */
  async list(organizationId: string): Promise<FunnelLink[]> {
    return (await this.links.find({ organization_id: organizationId }, { sort: { created_at: 1, _id: 1 } })).map(
      toLink,
    );
  }

  /** Throws FunnelLinkExistsError when the organization links this pair already. */
  async create(organizationId: string, id: string, input: FunnelLinkInput, at: Date): Promise<FunnelLink> {
    const doc: FunnelLinkDocument = {
      _id: id,
      organization_id: organizationId,
      inquiry_vendor_id: input.inquiryVendorId,
      application_vendor_id: input.applicationVendorId,
      time_window_hours: input.timeWindowHours,
      created_at: at.toISOString(),
    };
    try {
      await this.links.insertOne(doc);
    } catch (error) {
      if (error instanceof DuplicateKeyError && error.index !== '_id_') throw new FunnelLinkExistsError();
      throw error;
    }
    return toLink(doc);
  }

  async find(organizationId: string, id: string): Promise<FunnelLink | null> {
    const doc = await this.links.findOne({ _id: id, organization_id: organizationId });
    return doc ? toLink(doc) : null;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.links.deleteOne({ _id: id, organization_id: organizationId })) === 1;
  }
}
