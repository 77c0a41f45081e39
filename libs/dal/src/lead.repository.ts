import type { DedupCandidateQuery, LeadRecord, TenantContext } from '@leadstream/domain';
import type { Collection, DocumentStore, Filter } from '@leadstream/ports';
import { migrateLeadSearch } from './lead-search.migration';

export const LEADS_COLLECTION = 'leads';

/** Indexes of `leads` that earlier versions made and ensureIndexes now drops. */
export const RETIRED_LEAD_INDEXES: readonly string[] = ['tenant_created_at', 'tenant_phone_digits'];

/** One output kept with the lead's state until it is produced (transactional outbox). */
export interface OutboxEntry {
  topic: string;
  key: string;
  value: string;
}

/**
 * Leads of one tenant. Stage writes are compare-and-set on `version` and record the id of the
 * message they apply, so a redelivered message is recognised and changes nothing.
 */
export class LeadRepository {
  private readonly leads: Collection<LeadRecord>;

  constructor(store: DocumentStore) {
    this.leads = store.collection<LeadRecord>(LEADS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    const leads = store.collection(LEADS_COLLECTION);
    // Indexes earlier versions made that none of the service's reads uses, each a cost to every
    // insert (docs/performance.md "What each index of `leads` buys"): every read of a tenant's
    // leads but the vendor report's asks for deleted_at null, which the list indexes hold, and no
    // read filters or sorts on phone_digits (phone search reads search_phone; sorting by phone
    // sorts the phone field).
    for (const name of RETIRED_LEAD_INDEXES) await leads.dropIndex(name);
    // Vendor reports: a vendor's leads, deleted ones included, in a range of created_at.
    await leads.createIndex({
      keys: { organization_id: 1, environment: 1, vendor_id: 1, created_at: -1 },
      name: 'tenant_vendor_created_at',
    });
    // Deduplication candidates come from blocking keys, never from a scan (docs/decisions.md
    // "Deduplication").
    for (const key of ['bk_email', 'bk_phone', 'bk_name']) {
      // created_at descending like list_created_at, so the planner sees both avoid a sort and picks
      // this one for its extra equality column (SQLite breaks sort ties on rowid per direction).
      await leads.createIndex({
        keys: { organization_id: 1, environment: 1, [key]: 1, created_at: -1 },
        name: `tenant_${key}_created_at`,
      });
    }
    // The user API's list (`listLeads`, docs/decisions.md "Leads API") and exports: the visible
    // leads (deleted_at null) of a tenant, per equality filter, newest first. deleted_at and every
    // filtered field sit in the index, so the page's exact `total` is counted from the index alone
    // (a covering index scan, no document read); docs/performance.md has the figures at 1 M.
    const visible = { organization_id: 1, environment: 1, deleted_at: 1 } as const;
    await leads.createIndex({ keys: { ...visible, created_at: -1 }, name: 'list_created_at' });
    for (const fields of [
      ['status'],
      ['source'],
      ['vendor_id'],
      ['program'],
      ['status', 'source'],
      ['status', 'vendor_id'],
    ]) {
      const keys = Object.fromEntries(fields.map((field) => [field, 1] as const));
      await leads.createIndex({
        keys: { ...visible, ...keys, created_at: -1 },
        name: `list_${fields.join('_')}_created_at`,
      });
    }
    // Sort keys other than created_at, and the lowercase copies that searches of one or two
    // characters read as prefix ranges (also the case-insensitive sort keys of email and names).
    for (const field of ['updated_at', 'email_lower', 'first_name_lower', 'last_name_lower']) {
      await leads.createIndex({ keys: { organization_id: 1, environment: 1, [field]: 1 }, name: `tenant_${field}` });
    }
    // Search: text anywhere in the email or full name, digits anywhere in the phone (docs/decisions.md
    // "Lead search"; docs/store.md "Substring search" for what each engine builds).
    for (const field of ['search_text', 'search_phone']) {
      await leads.createIndex({
        keys: { organization_id: 1, environment: 1, [field]: 1 },
        name: `tenant_${field}`,
        substring: true,
      });
    }
    // Leads stored before the search copies get them, once per store (lead-search.migration.ts).
    await migrateLeadSearch(store, LEADS_COLLECTION);
    // Outboxes a crash left behind, for the outbox sweeper; almost every lead has none, so the
    // index holds only the leads that do (sparse), and a lead's write costs nothing here.
    await leads.createIndex({ keys: { outbox_at: 1 }, name: 'outbox_at', sparse: true });
    // Sandbox leads disappear 24 h after creation; live leads never expire (sparse, as above).
    await leads.createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0, sparse: true });
  }

  /** Inserts a lead (tests and tools; the pipeline writes leads through its batch writer). */
  async insert(lead: LeadRecord): Promise<void> {
    await this.leads.insertOne(lead);
  }

  async findById(tenant: TenantContext, id: string): Promise<LeadRecord | null> {
    return this.leads.findOne({ _id: id, organization_id: tenant.organizationId, environment: tenant.environment });
  }

  /**
   * The leads of the tenant among `ids`, in one read (a stage batch's prefetch). The filter is
   * `$in` on `_id` alone, which every engine answers from the primary key (FerretDB included);
   * with the tenant fields in the filter SQLite picked a tenant index and walked all of the
   * tenant's leads. The tenant is checked on what comes back, so no other tenant's lead leaves.
   */
  async findManyById(tenant: TenantContext, ids: readonly string[]): Promise<LeadRecord[]> {
    if (ids.length === 0) return [];
    const found = await this.leads.find({ _id: { $in: [...ids] } });
    return found.filter(
      (lead) => lead.organization_id === tenant.organizationId && lead.environment === tenant.environment,
    );
  }

  /**
   * Deduplication candidates (docs/pipeline.md: never a scan): for each blocking key of the query, the
   * leads of the tenant that passed deduplication, share that key and were created inside the
   * window, oldest first, from the index {tenant, key, created_at}. Each key is looked up on its
   * own so a crowded key (a common name) cannot crowd out an exact email match.
   */
  async findDedupCandidates(
    tenant: TenantContext,
    query: DedupCandidateQuery,
    limitPerKey = 50,
  ): Promise<LeadRecord[]> {
    const found = new Map<string, LeadRecord>();
    for (const filter of candidateFilters(tenant, query)) {
      for (const lead of await this.leads.find(filter, { sort: { created_at: 1 }, limit: limitPerKey }))
        found.set(lead._id, lead);
    }
    return [...found.values()].sort((a, b) => a.created_at.localeCompare(b.created_at) || a._id.localeCompare(b._id));
  }

  /**
   * Leads whose outbox a crash left behind before `cutoff`, oldest first, across tenants (the outbox
   * sweeper's maintenance read). In outbox_at order so the sparse outbox index answers it: in the
   * store's default order SQLite walked every lead instead (70 ms at 50,000 leads, every 10 s).
   */
  async staleOutboxes(cutoff: string, limit: number): Promise<LeadRecord[]> {
    return this.leads.find(staleOutboxFilter(cutoff), { sort: { outbox_at: 1 }, limit });
  }

  /** The indexes staleOutboxes reads (for tests: never a scan). */
  async explainStaleOutboxes(cutoff: string): Promise<string[]> {
    return this.leads.explainIndexes(staleOutboxFilter(cutoff), { sort: { outbox_at: 1 }, limit: 500 });
  }

  /** The indexes the engine uses for each candidate lookup (for tests: never a scan). */
  async explainDedupCandidates(tenant: TenantContext, query: DedupCandidateQuery): Promise<string[][]> {
    return Promise.all(
      candidateFilters(tenant, query).map((filter) =>
        this.leads.explainIndexes(filter, { sort: { created_at: 1 }, limit: 50 }),
      ),
    );
  }
}

const staleOutboxFilter = (cutoff: string): Filter => ({ outbox_at: { $lt: cutoff } });

function candidateFilters(tenant: TenantContext, query: DedupCandidateQuery): Filter[] {
  const filters: Filter[] = [];
  const lookups: Array<[string, string | null]> = [
    ['bk_email', query.keys.email],
    ['bk_phone', query.keys.phone],
    ['bk_name', query.keys.name],
  ];
  for (const [field, value] of lookups) {
    if (value === null) continue;
    const filter: Filter = {
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      [field]: value,
      dedup_status: 'unique',
      deleted_at: null,
    };
    if (query.created_after) filter['created_at'] = { $gte: query.created_after };
    if (query.vendor_id) filter['vendor_id'] = query.vendor_id;
    if (query.exclude_lead_id) filter['_id'] = { $ne: query.exclude_lead_id };
    filters.push(filter);
  }
  return filters;
}
