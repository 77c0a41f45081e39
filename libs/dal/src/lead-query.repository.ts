/**
 * The user API's reads and writes of leads (operations `listLeads`, `getLead`, ...): list with
 * filters, search, sort and pages; get; partial update and soft delete as compare-and-set writes on
 * `version` that carry their lead.updated / lead.deleted events in the lead's outbox. Every query
 * takes the tenant and never sees a soft-deleted lead.
 *
 * Indexes (LeadRepository.ensureIndexes) answer a filtered, sorted page without a scan: each
 * equality filter (status, source, program, vendor_id) has an index {tenant, field, created_at},
 * the common sort keys one {tenant, key}, and search the substring indexes of the search copies
 * (docs/decisions.md "Lead search"), or for one or two characters a prefix range per lowercase copy.
 */
import type { LeadListQuery, LeadRecord, LeadSearch, TenantContext } from '@leadstream/domain';
import type { Collection, DocumentStore, Filter, FindOptions, SortSpec, Update } from '@leadstream/ports';
import { LEADS_COLLECTION, type OutboxEntry } from './lead.repository';

/** Upper end of a prefix range: every string starting with `prefix` sorts below it. */
const prefixRange = (prefix: string): { $gte: string; $lt: string } => ({ $gte: prefix, $lt: `${prefix}\uffff` });

export interface LeadPage {
  leads: LeadRecord[];
  total: number;
}

export class LeadQueryRepository {
  private readonly leads: Collection<LeadRecord>;

  constructor(store: DocumentStore) {
    this.leads = store.collection<LeadRecord>(LEADS_COLLECTION);
  }

  async list(tenant: TenantContext, query: LeadListQuery): Promise<LeadPage> {
    const filter = leadListFilter(tenant, query);
    const [leads, total] = await Promise.all([
      this.leads.find(filter, listOptions(query)),
      this.leads.countDocuments(filter),
    ]);
    return { leads, total };
  }

  /** The indexes the engine would use for the page (tests prove a filtered, sorted page is indexed). */
  async explainList(tenant: TenantContext, query: LeadListQuery): Promise<string[]> {
    return this.leads.explainIndexes(leadListFilter(tenant, query), listOptions(query));
  }

  /** A lead of the tenant that is not deleted. */
  async findVisible(tenant: TenantContext, id: string): Promise<LeadRecord | null> {
    return this.leads.findOne({ _id: id, ...tenantFilter(tenant) });
  }

  async findManyVisible(tenant: TenantContext, ids: readonly string[]): Promise<LeadRecord[]> {
    if (ids.length === 0) return [];
    return this.leads.find({ _id: { $in: [...ids] }, ...tenantFilter(tenant) });
  }

  /**
   * Writes a user's change if nobody wrote the lead since `expectedVersion`, with the events to
   * produce in the outbox. Null when the version moved or the lead is gone (the caller reloads).
   */
  async writeIfUnchanged(
    tenant: TenantContext,
    id: string,
    expectedVersion: number,
    set: Partial<LeadRecord>,
    outbox: OutboxEntry[],
  ): Promise<LeadRecord | null> {
    const { filter, update } = leadChangeWrite(tenant, id, expectedVersion, set, outbox);
    return this.leads.findOneAndUpdate(filter, update);
  }

  /** Marks the outbox of `version` produced; a no-op when the lead moved on since, or belongs to another tenant. */
  async clearOutbox(tenant: TenantContext, id: string, version: number): Promise<void> {
    await this.leads.updateOne(
      { _id: id, organization_id: tenant.organizationId, environment: tenant.environment, version },
      { $set: { outbox: [], outbox_at: null } },
    );
  }
}

/**
 * The compare-and-set write of a user's change of a lead (writeIfUnchanged): the tenant's visible
 * lead at `expectedVersion` gets `set`, the next version and `outbox`, the outputs not produced
 * yet (none where the unit of work produces them in the same commit).
 */
export function leadChangeWrite(
  tenant: TenantContext,
  id: string,
  expectedVersion: number,
  set: Partial<LeadRecord>,
  outbox: OutboxEntry[],
): { filter: Filter; update: Update } {
  return {
    filter: { _id: id, ...tenantFilter(tenant), version: expectedVersion },
    // outbox_at lets the outbox sweeper produce what a crash before clearOutbox left behind.
    update: {
      $set: {
        ...(set as Record<string, never>),
        outbox: outbox as unknown as never,
        outbox_at: outbox.length > 0 ? new Date().toISOString() : null,
      },
      $inc: { version: 1 },
    },
  };
}

function tenantFilter(tenant: TenantContext): Filter {
  return { organization_id: tenant.organizationId, environment: tenant.environment, deleted_at: null };
}

/** The filters of a lead list (GET /leads) and of an export of it (POST /leads/export). */
export type LeadListCriteria = Pick<
  LeadListQuery,
  'status' | 'source' | 'vendor_id' | 'program' | 'createdFrom' | 'createdBefore' | 'search'
>;

/** The store filter of the tenant's visible leads that match `criteria`; every shape has an index. */
export function leadListFilter(tenant: TenantContext, query: LeadListCriteria): Filter {
  const filter: Filter = tenantFilter(tenant);
  if (query.status) filter['status'] = query.status;
  if (query.source) filter['source'] = query.source;
  if (query.vendor_id) filter['vendor_id'] = query.vendor_id;
  if (query.program) filter['program'] = query.program;
  if (query.createdFrom || query.createdBefore) {
    filter['created_at'] = {
      ...(query.createdFrom ? { $gte: query.createdFrom } : {}),
      ...(query.createdBefore ? { $lt: query.createdBefore } : {}),
    };
  }
  if (!query.search) return filter;
  // Each branch repeats the tenant and the filters, so every branch is an index range of its own
  // (SQLite's OR-by-union and MongoDB's $or plan each branch separately) instead of one walk over
  // all the tenant's leads testing each against every branch.
  return { $or: searchClauses(query.search).map((clause) => ({ ...filter, ...clause })) };
}

/**
 * The text anywhere in the email or full name and the digits anywhere in the phone, each from a
 * substring index (LeadRepository.ensureIndexes); one or two characters are prefix ranges on the
 * lowercase copies. Never a scan of the tenant's leads.
 */
function searchClauses(search: LeadSearch): Filter[] {
  if (search.mode === 'prefix')
    return [
      { email_lower: prefixRange(search.text) },
      { first_name_lower: prefixRange(search.text) },
      { last_name_lower: prefixRange(search.text) },
    ];
  const clauses: Filter[] = [{ search_text: { $contains: search.text } }];
  if (search.phoneDigits) clauses.push({ search_phone: { $contains: search.phoneDigits } });
  return clauses;
}

/** Email and names sort case-insensitively, on the lowercase copies the search indexes hold. */
const SORT_PATHS: Partial<Record<LeadListQuery['sortBy'], string>> = {
  id: '_id',
  email: 'email_lower',
  first_name: 'first_name_lower',
  last_name: 'last_name_lower',
};

function listOptions(query: LeadListQuery): FindOptions {
  const direction = query.sortOrder === 'asc' ? 1 : -1;
  const sort: SortSpec = { [SORT_PATHS[query.sortBy] ?? query.sortBy]: direction };
  return { sort, skip: (query.page - 1) * query.limit, limit: query.limit };
}
