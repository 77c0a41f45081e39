/**
 * The store side of the review queue (docs/review-queue.md): the leads waiting for a decision
 * (`review_status: pending`), their counts per flag kind, and each organization's review settings
 * (read from the organization's settings, written with PATCH /api/organization). The leads are only
 * read here: a decision is a command to the route stage, which writes the lead.
 */
import { LEADS_COLLECTION, OrganizationRepository } from '@leadstream/dal';
import {
  hasReviewSettings,
  REVIEW_FLAG_KINDS,
  reviewSettingsOf,
  type LeadRecord,
  type ReviewFlagKind,
  type ReviewSettings,
  type TenantContext,
} from '@leadstream/domain';
import type { Collection, DocumentStore, Filter } from '@leadstream/ports';

export interface ReviewQueueFilter {
  kind?: ReviewFlagKind;
  vendorId?: string;
  receivedFrom?: string;
  receivedBefore?: string;
}

export interface ReviewQueuePage {
  leads: LeadRecord[];
  total: number;
  counts: Record<ReviewFlagKind, number>;
}

export class ReviewQueueRepository {
  private readonly leads: Collection<LeadRecord>;
  private readonly organizations: OrganizationRepository;

  constructor(store: DocumentStore) {
    this.leads = store.collection<LeadRecord>(LEADS_COLLECTION);
    this.organizations = new OrganizationRepository(store);
  }

  /** Index of the queue: the waiting leads of a tenant, oldest first. */
  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store.collection(LEADS_COLLECTION).createIndex({
      keys: { organization_id: 1, environment: 1, review_status: 1, submitted_at: 1 },
      name: 'review_queue',
    });
  }

  async list(
    tenant: TenantContext,
    filter: ReviewQueueFilter,
    page: { page: number; limit: number; order: 'asc' | 'desc' },
  ): Promise<ReviewQueuePage> {
    const base = waitingFilter(tenant, { ...filter, kind: undefined });
    const selected = waitingFilter(tenant, filter);
    const [leads, total, ...counts] = await Promise.all([
      this.leads.find(selected, {
        sort: { submitted_at: page.order === 'asc' ? 1 : -1 },
        skip: (page.page - 1) * page.limit,
        limit: page.limit,
      }),
      this.leads.countDocuments(selected),
      ...REVIEW_FLAG_KINDS.map((kind) => this.leads.countDocuments({ ...base, review_kinds: { $all: [kind] } })),
    ]);
    return {
      leads,
      total,
      counts: Object.fromEntries(REVIEW_FLAG_KINDS.map((kind, index) => [kind, counts[index] ?? 0])) as Record<
        ReviewFlagKind,
        number
      >,
    };
  }

  async findVisible(tenant: TenantContext, id: string): Promise<LeadRecord | null> {
    return this.leads.findOne({ _id: id, ...tenantFilter(tenant) });
  }

  /** Waiting leads held before `heldBefore` (the automatic decision and the SLA count), oldest first. */
  async waitingSince(tenant: TenantContext, heldBefore: string, limit: number): Promise<LeadRecord[]> {
    return this.leads.find(
      { ...tenantFilter(tenant), review_status: 'pending', 'review.held_at': { $lt: heldBefore } },
      { sort: { submitted_at: 1 }, limit },
    );
  }

  async countWaitingSince(tenant: TenantContext, heldBefore: string): Promise<number> {
    return this.leads.countDocuments({
      ...tenantFilter(tenant),
      review_status: 'pending',
      'review.held_at': { $lt: heldBefore },
    });
  }

  /** The organization's review settings (null each when not set). */
  async getSettings(tenant: TenantContext): Promise<ReviewSettings> {
    return reviewSettingsOf((await this.organizations.get(tenant))?.settings);
  }

  /** Organizations with an automatic decision or an SLA set (the scheduled job's and /metrics' work list). */
  async organizationsWithSettings(): Promise<Array<ReviewSettings & { organization_id: string }>> {
    const all = await this.organizations.listAll();
    return all
      .map((organization) => ({ organization_id: organization.id, ...reviewSettingsOf(organization.settings) }))
      .filter(hasReviewSettings);
  }
}

function tenantFilter(tenant: TenantContext): Filter {
  return { organization_id: tenant.organizationId, environment: tenant.environment, deleted_at: null };
}

function waitingFilter(tenant: TenantContext, filter: ReviewQueueFilter): Filter {
  const query: Filter = { ...tenantFilter(tenant), review_status: 'pending' };
  if (filter.kind) query['review_kinds'] = { $all: [filter.kind] };
  if (filter.vendorId) query['vendor_id'] = filter.vendorId;
  if (filter.receivedFrom || filter.receivedBefore)
    query['submitted_at'] = {
      ...(filter.receivedFrom ? { $gte: filter.receivedFrom } : {}),
      ...(filter.receivedBefore ? { $lt: filter.receivedBefore } : {}),
    };
  return query;
}
