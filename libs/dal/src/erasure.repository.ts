/**
 * What an erasure (POST /api/leads/:id/erase, docs/consent.md) reads and writes besides the lead's
 * compare-and-set: the lead in any state (a deleted lead can be erased too), its activity entries'
 * metadata, its dedup log entry, and the organization's exports whose files are still to be
 * downloaded.
 */
import type { ExportRecord, LeadRecord, TenantContext } from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';
import { DEDUP_LOG_COLLECTION, type DedupLogDocument } from './dedup.repository';
import { EXPORTS_COLLECTION } from './export.repository';
import { LEAD_ACTIVITY_COLLECTION, type LeadActivityEntry } from './lead-activity.repository';
import { LEADS_COLLECTION, type OutboxEntry } from './lead.repository';

export class ErasureRepository {
  private readonly leads: Collection<LeadRecord>;
  private readonly activity: Collection<LeadActivityEntry>;
  private readonly dedupLog: Collection<DedupLogDocument>;
  private readonly exports: Collection<ExportRecord>;

  constructor(store: DocumentStore) {
    this.leads = store.collection<LeadRecord>(LEADS_COLLECTION);
    this.activity = store.collection<LeadActivityEntry>(LEAD_ACTIVITY_COLLECTION);
    this.dedupLog = store.collection<DedupLogDocument>(DEDUP_LOG_COLLECTION);
    this.exports = store.collection<ExportRecord>(EXPORTS_COLLECTION);
  }

  /** A lead of the tenant, deleted or not. */
  async findAny(tenant: TenantContext, id: string): Promise<LeadRecord | null> {
    return this.leads.findOne({ _id: id, organization_id: tenant.organizationId, environment: tenant.environment });
  }

  /** The erasure's compare-and-set on the lead, deleted or not, with its event in the outbox. */
  async writeIfUnchanged(
    tenant: TenantContext,
    id: string,
    expectedVersion: number,
    set: Partial<LeadRecord>,
    outbox: OutboxEntry[],
  ): Promise<LeadRecord | null> {
    return this.leads.findOneAndUpdate(
      { _id: id, organization_id: tenant.organizationId, environment: tenant.environment, version: expectedVersion },
      {
        $set: {
          ...(set as Record<string, never>),
          outbox: outbox as unknown as never,
          outbox_at: outbox.length > 0 ? new Date().toISOString() : null,
        },
        $inc: { version: 1 },
      },
    );
  }

  /** Empties the metadata of every activity entry of the lead (the events and their times stay). */
  async scrubActivity(tenant: TenantContext, leadId: string): Promise<number> {
    const result = await this.activity.updateMany(
      { organization_id: tenant.organizationId, environment: tenant.environment, lead_id: leadId },
      { $set: { metadata: { erased: true } } },
    );
    return result.modifiedCount;
  }

  /** Clears the person's email and names from the lead's dedup log entry (the decision stays). */
  async scrubDedupLog(tenant: TenantContext, leadId: string): Promise<number> {
    const result = await this.dedupLog.updateMany(
      { organization_id: tenant.organizationId, environment: tenant.environment, lead_id: leadId },
      { $set: { incoming_lead: { id: leadId, email: null, first_name: null, last_name: null }, match_fields: {} } },
    );
    return result.modifiedCount;
  }

  /** The tenant's exports with a file that can still be downloaded (completed and not expired). */
  async downloadableExports(tenant: TenantContext, now: Date): Promise<ExportRecord[]> {
    const exports = await this.exports.find({
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      status: 'completed',
    });
    return exports.filter(
      (record) =>
        record.file_id !== null && (record.expires_at === null || record.expires_at.getTime() > now.getTime()),
    );
  }

  /** Points an export at its rewritten file and its new row count. */
  async replaceExportFile(tenant: TenantContext, id: string, fileId: string, rowCount: number): Promise<void> {
    await this.exports.updateOne(
      { _id: id, organization_id: tenant.organizationId, environment: tenant.environment },
      { $set: { file_id: fileId, row_count: rowCount } },
    );
  }
}
