/**
 * Reprocessing jobs (POST /api/reprocess, docs/reprocessing.md): the job document the API creates
 * and polls, and the leads the `reprocess` stage walks through: those of the lead export with the
 * same filters (`leadExportFilter`), streamed. Progress writes are plain `$set`s by the one stage
 * that runs the job; a cancel is a flag the stage reads between batches.
 */
import type { ExportFilters, LeadRecord, TenantContext } from '@leadstream/domain';
import type { Collection, DocumentStore, Filter } from '@leadstream/ports';
import { leadExportFilter } from './export.repository';
import { LEADS_COLLECTION } from './lead.repository';

export const REPROCESS_JOBS_COLLECTION = 'reprocess_jobs';

export const REPROCESS_STAGES = ['enrich', 'route', 'crm-sync'] as const;
export type ReprocessStageName = (typeof REPROCESS_STAGES)[number];

export type ReprocessJobStatus = 'queued' | 'running' | 'completed' | 'cancelled' | 'failed';

/** One difference a dry run found (at most REPROCESS_SAMPLE_SIZE kept). */
export interface ReprocessDifference {
  lead_id: string;
  field: string;
  old: unknown;
  new: unknown;
}

export const REPROCESS_SAMPLE_SIZE = 100;

export interface ReprocessJob {
  _id: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  user_id: string;
  filter: ExportFilters;
  stages: ReprocessStageName[];
  dry_run: boolean;
  status: ReprocessJobStatus;
  /** Leads matching the filter when the job started (null until then). */
  total: number | null;
  /** Leads looked at, leads with a difference (changed, or would change in a dry run), leads that could not be written. */
  done: number;
  changed: number;
  failed: number;
  /** Leads with a difference, per field (`routing` for the route). */
  field_counts: Record<string, number>;
  /** The first differences found (a dry run only; empty for a real run). */
  sample: ReprocessDifference[];
  /** CRM syncs requested because the routing target changed (a real run with the crm-sync stage). */
  crm_syncs: number;
  cancel_requested: boolean;
  error: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export class ReprocessJobRepository {
  private readonly jobs: Collection<ReprocessJob>;
  private readonly leads: Collection<LeadRecord>;

  constructor(store: DocumentStore) {
    this.jobs = store.collection<ReprocessJob>(REPROCESS_JOBS_COLLECTION);
    this.leads = store.collection<LeadRecord>(LEADS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(REPROCESS_JOBS_COLLECTION)
      .createIndex({ keys: { organization_id: 1, environment: 1, created_at: -1 }, name: 'tenant_created_at' });
  }

  async insert(job: ReprocessJob): Promise<void> {
    await this.jobs.insertOne(job);
  }

  async find(tenant: TenantContext, id: string): Promise<ReprocessJob | null> {
    return this.jobs.findOne({ _id: id, organization_id: tenant.organizationId, environment: tenant.environment });
  }

  async progress(job: Pick<ReprocessJob, '_id'>, set: Partial<Omit<ReprocessJob, '_id'>>): Promise<void> {
    await this.jobs.updateOne({ _id: job._id }, { $set: set as never });
  }

  /** Asks the stage to stop a queued or running job; null when there is no such job, false when it had ended. */
  async requestCancel(tenant: TenantContext, id: string, at: string): Promise<boolean | null> {
    const job = await this.find(tenant, id);
    if (!job) return null;
    if (job.status !== 'queued' && job.status !== 'running') return false;
    const result = await this.jobs.updateOne(
      { _id: id, organization_id: tenant.organizationId, status: job.status },
      job.status === 'queued'
        ? { $set: { cancel_requested: true, status: 'cancelled', completed_at: at } }
        : { $set: { cancel_requested: true } },
    );
    // A job that moved on meanwhile (queued -> running): ask it to stop all the same.
    if (result.matchedCount === 0) await this.jobs.updateOne({ _id: id }, { $set: { cancel_requested: true } });
    return true;
  }

  /**
   * Counts the matching leads `step` at a time, yielding the count so far after each step and the
   * total last. One count over a large organization holds the store for as long as it reads every
   * lead (half a second at 100,000 on the embedded store, the pipeline's whole thread); in steps,
   * the job rests between them as it does between batches. A step finds the lead `step` places on
   * in (created_at, _id) order, as the batches do; the last step counts what is left.
   */
  async *countLeadsInSteps(tenant: TenantContext, filter: ExportFilters, step: number): AsyncIterable<number> {
    const matching = leadExportFilter(tenant, filter);
    let counted = 0;
    let last: LeadRecord | undefined;
    for (;;) {
      const where = last ? { $and: [matching, after(last)] } : matching;
      const [boundary] = await this.leads.find(where, { sort: { created_at: 1, _id: 1 }, skip: step - 1, limit: 1 });
      if (!boundary) {
        yield counted + (await this.leads.countDocuments(where));
        return;
      }
      counted += step;
      last = boundary;
      yield counted;
    }
  }

  /**
   * The matching leads in (created_at, _id) order, `batchSize` at a time, each page a query of its
   * own from where the last one ended. A job runs for minutes; one cursor over all of them would
   * hold one read snapshot that long, and on the embedded store a snapshot keeps SQLite from
   * checkpointing the WAL past it (it grew by gigabytes under live ingest). Each page reads the
   * leads as stored now.
   */
  async *leadsOf(tenant: TenantContext, filter: ExportFilters, batchSize: number): AsyncIterable<LeadRecord> {
    const matching = leadExportFilter(tenant, filter);
    let last: LeadRecord | undefined;
    for (;;) {
      const page = await this.leads.find(last ? { $and: [matching, after(last)] } : matching, {
        sort: { created_at: 1, _id: 1 },
        limit: batchSize,
      });
      yield* page;
      if (page.length < batchSize) return;
      last = page[page.length - 1];
    }
  }

  /** The leads of `ids` as stored now (after a write conflict). */
  async reread(tenant: TenantContext, ids: string[]): Promise<LeadRecord[]> {
    return this.leads.find({
      _id: { $in: ids },
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      deleted_at: null,
    });
  }
}

/** The leads after `last` in (created_at, _id) order. */
function after(last: LeadRecord): Filter {
  return {
    created_at: { $gte: last.created_at },
    $or: [{ created_at: { $gt: last.created_at } }, { _id: { $gt: last._id } }],
  };
}
