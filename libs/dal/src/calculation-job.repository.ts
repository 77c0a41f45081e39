/**
 * Recalculation jobs of calculated fields (POST /api/calculated-fields/:id/recalculate and
 * /recalculate-all): a job document the API creates and polls, and the leads the `recalculate`
 * stage walks through. Lead writes are compare-and-set on the lead's version, like every stage
 * write, so a recalculation never overwrites a pipeline write (it reads the lead again instead).
 */
import type { LeadRecord } from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';
import { LEADS_COLLECTION } from './lead.repository';

export const CALCULATION_JOBS_COLLECTION = 'calculation_jobs';

export interface CalculationJob {
  id: string;
  organization_id: string;
  /** Names of the fields to recompute; null = every calculated field. */
  fields: string[] | null;
  reason: 'manual' | 'formula_changed';
  status: 'queued' | 'running' | 'completed' | 'failed';
  /** Leads looked at, and how many of them got new values. */
  processed: number;
  updated: number;
  total: number | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

type JobDocument = Omit<CalculationJob, 'id'> & { _id: string };

export class CalculationJobRepository {
  private readonly jobs: Collection<JobDocument>;
  private readonly leads: Collection<LeadRecord>;

  constructor(store: DocumentStore) {
    this.jobs = store.collection<JobDocument>(CALCULATION_JOBS_COLLECTION);
    this.leads = store.collection<LeadRecord>(LEADS_COLLECTION);
  }

  async create(job: CalculationJob): Promise<void> {
    const { id, ...rest } = job;
    await this.jobs.insertOne({ _id: id, ...rest });
  }

  async find(organizationId: string, id: string): Promise<CalculationJob | null> {
    const doc = await this.jobs.findOne({ _id: id, organization_id: organizationId });
    if (!doc) return null;
    const { _id, ...rest } = doc;
    return { id: _id, ...rest };
  }

  /** The organization's most recent jobs, newest first. */
  async recent(organizationId: string, limit = 20): Promise<CalculationJob[]> {
    return (await this.jobs.find({ organization_id: organizationId }, { sort: { created_at: -1 }, limit })).map(
      ({ _id, ...rest }) => ({ id: _id, ...rest }),
    );
  }

  async progress(id: string, set: Partial<Omit<CalculationJob, 'id' | 'organization_id'>>): Promise<void> {
    await this.jobs.updateOne({ _id: id }, { $set: set });
  }

  async countLeads(organizationId: string): Promise<number> {
    return this.leads.countDocuments({ organization_id: organizationId, deleted_at: null });
  }

  /** The organization's leads (both environments, not deleted), streamed. */
  leadsOf(organizationId: string): AsyncIterable<LeadRecord> {
    return this.leads.iterate({ organization_id: organizationId, deleted_at: null }, { batchSize: 500 });
  }

  async reread(lead: Pick<LeadRecord, '_id' | 'organization_id'>): Promise<LeadRecord | null> {
    return this.leads.findOne({ _id: lead._id, organization_id: lead.organization_id, deleted_at: null });
  }

  /** Stores new calculated values if the lead is still at `lead.version`; false when someone wrote it meanwhile. */
  async writeCalculated(
    lead: Pick<LeadRecord, '_id' | 'organization_id' | 'version'>,
    values: Record<string, unknown>,
    at: string,
  ): Promise<boolean> {
    const result = await this.leads.updateOne(
      { _id: lead._id, organization_id: lead.organization_id, version: lead.version },
      { $set: { calculated_fields: values as never, updated_at: at }, $inc: { version: 1 } },
    );
    return result.matchedCount === 1;
  }
}
