/**
 * Dedup stage: consumes leads.validated, keyed by tenant and normalized email, so two identical
 * leads arriving together are decided one after the other and cannot both pass. Candidates come
 * from the indexed blocking keys inside the window (never a scan), read for the whole batch
 * before any decision; a lead that became unique earlier in the same batch (not stored yet) is a
 * candidate too, found by its blocking keys in memory, so the batch is never cut. Every decision
 * is logged; a merge changes the original through the batch's own version-checked write, with
 * its search and blocking fields recomputed.
 */
import {
  DedupRepository,
  toDedupLead,
  type DedupVendorTraits,
  type LeadRepository,
  type VendorRepository,
} from '@leadstream/dal';
import {
  buildCandidateQuery,
  decideDuplicate,
  mergeLeads,
  withDerivedFields,
  type DedupConfig,
  type DedupDecision,
  type DedupLead,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import type { LeadCommandMessage } from '@leadstream/schemas';
import type { LeadStage } from '../batch/lead-stage';
import { addIdempotentWrites, type OutputRecord } from '../batch/batch-write';
import type { ConfigSource } from '../batch/config-source';
import type { LeadBatch } from '../batch/lead-batch';
import { advance, commandConfigVersions, deadLetter, leadStage, mapBounded, tenantOf } from '../batch/lead-stage';
import { decisionOutput, eventOutput, nextStageOutput, TOPICS } from './outputs';

export interface DedupStageDependencies {
  leads: Pick<LeadRepository, 'findManyById' | 'findDedupCandidates'>;
  dedup: Pick<DedupRepository, 'getConfig'>;
  vendors: Pick<VendorRepository, 'findById'>;
  config: ConfigSource;
  now?: () => Date;
}

interface DedupContext {
  configs: Map<string, DedupConfig>;
  /** Group and type of each vendor of the batch's leads and their candidates. */
  vendors: Map<string, DedupVendorTraits | null>;
  /** Stored candidates of each command, by message id. */
  candidates: Map<string, LeadRecord[]>;
  /** Blocking keys (per tenant) of the leads that became unique in this batch so far, with their ids. */
  uniqueKeys: Map<string, string[]>;
  at: Date;
}

const CANDIDATE_CONCURRENCY = 8;

export function dedupStage(deps: DedupStageDependencies): LeadStage {
  const now = deps.now ?? (() => new Date());
  const tenantKey = (tenant: TenantContext): string => `${tenant.organizationId}:${tenant.environment}`;

  return leadStage<DedupContext>({
    name: 'dedup',
    topic: TOPICS.validated,
    leads: deps.leads,
    async prefetch(messages, batch) {
      const at = now();
      const versions = commandConfigVersions(messages);
      const configs = new Map<string, DedupConfig>();
      const tenants = new Map(messages.map((message) => [tenantKey(tenantOf(message)), tenantOf(message)]));
      await Promise.all(
        [...tenants].map(async ([key, tenant]) => {
          configs.set(
            key,
            await deps.config.get(
              tenant.organizationId,
              'dedup-settings',
              () => deps.dedup.getConfig(tenant),
              versions.get(tenant.organizationId),
            ),
          );
        }),
      );
      const vendors = new Map<string, DedupVendorTraits | null>();
      const traitsOf = async (tenant: TenantContext, vendorId: string | null): Promise<void> => {
        if (!vendorId || vendors.has(vendorId)) return;
        vendors.set(vendorId, null);
        const vendor = await deps.config.get(
          tenant.organizationId,
          `vendor:${vendorId}`,
          () => deps.vendors.findById(tenant, vendorId),
          versions.get(tenant.organizationId),
        );
        vendors.set(vendorId, vendor ? { group: vendor.group ?? null, type: vendor.type ?? null } : null);
      };
      const candidates = new Map<string, LeadRecord[]>();
      await mapBounded(messages, CANDIDATE_CONCURRENCY, async (message) => {
        const tenant = tenantOf(message);
        const lead = batch.get(tenant, message.lead_id);
        if (!lead || lead.applied_messages.includes(message.message_id)) return;
        await traitsOf(tenant, lead.vendor_id);
        const config = configs.get(tenantKey(tenant))!;
        const query = buildCandidateQuery({
          incoming: subjectOf(lead, vendors),
          config,
          vendorId: lead.vendor_id,
          now: at,
        });
        const found = query ? await deps.leads.findDedupCandidates(tenant, query) : [];
        for (const candidate of found) await traitsOf(tenant, candidate.vendor_id);
        candidates.set(message.message_id, found);
      });
      return { configs, vendors, candidates, uniqueKeys: new Map(), at };
    },
    decide(message, lead, context, batch, write, record) {
      if (!lead) {
        write.records.push(deadLetter(record, `lead ${message.lead_id} not found (deleted, expired or never created)`));
        return 'decided';
      }
      const tenant = tenantOf(message);
      const keys = blockingKeysOf(tenant, lead);
      const config = context.configs.get(tenantKey(tenant))!;
      // Candidates as this batch has them (an original merged earlier in the batch is read from
      // it), and the leads of this batch that became unique before this one and share a key.
      const stored = context.candidates.get(message.message_id) ?? [];
      const candidates = stored.map((candidate) => batch.get(tenant, candidate._id) ?? candidate);
      const inBatch = new Set(keys.flatMap((key) => context.uniqueKeys.get(key) ?? []));
      for (const id of inBatch) {
        const earlier = batch.get(tenant, id);
        if (earlier && id !== lead._id && !candidates.some((candidate) => candidate._id === id))
          candidates.push(earlier);
      }
      const dedupCandidates: DedupLead[] = candidates.map((candidate) =>
        toDedupLead(candidate, context.vendors.get(candidate.vendor_id ?? '') ?? null),
      );
      const decision = decideDuplicate({
        incoming: subjectOf(lead, context.vendors),
        candidates: dedupCandidates,
        config,
        vendorId: lead.vendor_id,
        now: context.at,
      });
      addIdempotentWrites(write, DedupRepository.LOG_COLLECTION, [
        DedupRepository.recordOperation(tenant, lead._id, decision.log),
      ]);
      const original = decision.duplicate
        ? candidates.find((candidate) => candidate._id === decision.matchedLeadId)
        : undefined;
      const unique = apply(message, lead, decision, original, context.at.toISOString(), batch);
      if (unique)
        for (const key of keys) context.uniqueKeys.set(key, [...(context.uniqueKeys.get(key) ?? []), lead._id]);
      return 'decided';
    },
  });
}

function subjectOf(lead: LeadRecord, vendors: Map<string, DedupVendorTraits | null>): DedupLead {
  return toDedupLead(lead, vendors.get(lead.vendor_id ?? '') ?? null);
}

function blockingKeysOf(tenant: TenantContext, lead: LeadRecord): string[] {
  const prefix = `${tenant.organizationId}:${tenant.environment}`;
  return (['bk_email', 'bk_phone', 'bk_name'] as const).flatMap((field) =>
    typeof lead[field] === 'string' ? [`${prefix}:${field}:${lead[field]}`] : [],
  );
}

/** Puts the lead's transition (and a merge into the original) in the batch; returns whether the lead passes as unique. */
function apply(
  message: LeadCommandMessage,
  lead: LeadRecord,
  decision: DedupDecision,
  original: LeadRecord | undefined,
  at: string,
  batch: LeadBatch,
): boolean {
  const next = nextStageOutput(TOPICS.unique, lead._id, message, 'dedup');
  if (!decision.duplicate || decision.action === 'allow') {
    batch.put(advance(lead, message, { type: 'UNIQUE' }, { dedup_status: 'unique' }, at), [next]);
    return true;
  }
  const match = { duplicateOf: decision.matchedLeadId, similarityScore: decision.similarityScore };
  const duplicateEvent = eventOutput(
    lead,
    'lead.duplicate',
    {
      lead_id: lead._id,
      duplicate_of: decision.matchedLeadId,
      similarity_score: decision.similarityScore,
      matched_fields: decision.matchedFields,
      action: decision.action,
    },
    at,
  );
  const linked: Partial<LeadRecord> = {
    duplicate_of: decision.matchedLeadId,
    similarity_score: decision.similarityScore,
  };
  // A duplicate that is refused or merged goes no further: never enriched, never synced.
  const ended: Partial<LeadRecord> = { enrichment_status: 'skipped', crm_sync_status: 'not_applicable' };
  switch (decision.action) {
    case 'reject':
      batch.put(
        advance(
          lead,
          message,
          { type: 'DUPLICATE_REJECTED', ...match },
          { ...linked, ...ended, dedup_status: 'duplicate', processed_at: at, rejection_reason: 'duplicate' },
          at,
        ),
        [
          duplicateEvent,
          decisionOutput({
            correlation_id: message.correlation_id,
            lead_id: lead._id,
            outcome: 'duplicate',
            decided_at: at,
            email: lead.email,
            duplicate_of: decision.matchedLeadId,
            similarity_score: decision.similarityScore,
            matched_fields: decision.matchedFields,
          }),
        ],
      );
      return false;
    case 'merge': {
      if (original) mergeIntoOriginal(original, lead, at, batch);
      batch.put(
        advance(
          lead,
          message,
          { type: 'DUPLICATE_MERGED', ...match },
          { ...linked, ...ended, dedup_status: 'duplicate', processed_at: at },
          at,
        ),
        [
          duplicateEvent,
          decisionOutput({
            correlation_id: message.correlation_id,
            lead_id: decision.matchedLeadId,
            outcome: 'merged',
            decided_at: at,
            email: lead.email,
            duplicate_of: decision.matchedLeadId,
          }),
        ],
      );
      return false;
    }
    case 'link-to-existing':
      batch.put(
        advance(lead, message, { type: 'DUPLICATE_LINKED', ...match }, { ...linked, dedup_status: 'unique' }, at),
        [duplicateEvent, next],
      );
      return true;
    case 'flag':
      batch.put(
        advance(
          lead,
          message,
          { type: 'DUPLICATE_FLAGGED', ...match },
          {
            ...linked,
            dedup_status: 'unique',
            flags: [...new Set([...lead.flags, 'manual_review' as const, 'possible_duplicate' as const])],
          },
          at,
        ),
        [duplicateEvent, next],
      );
      return true;
  }
}

/** Action merge: the original takes the patch through the same version-checked batch write as every lead change. */
function mergeIntoOriginal(original: LeadRecord, lead: LeadRecord, at: string, batch: LeadBatch): void {
  batch.load(original);
  const { patch, changes } = mergeLeads(original, { ...lead, created_at: lead.submitted_at });
  if (Object.keys(changes).length === 0) return;
  const merged = withDerivedFields({ ...original, ...(patch as Partial<LeadRecord>), updated_at: at });
  const updated: OutputRecord = eventOutput(
    original,
    'lead.updated',
    { lead: { id: original._id, email: merged.email ?? null, phone: merged.phone ?? null, updated_at: at }, changes },
    at,
  );
  batch.put(merged, [updated]);
}
