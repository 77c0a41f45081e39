import {
  buildCandidateQuery,
  decideDuplicate,
  type DedupConfig,
  type DedupDecision,
  type DedupIncomingLead,
  type DedupLead,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import type { LeadRepository } from './lead.repository';
import type { VendorRepository } from './vendor.repository';

/** A stored lead as deduplication sees it. */
export function toDedupLead(lead: LeadRecord, vendorGroup: string | null): DedupLead {
  return {
    id: lead._id,
    email: lead.email,
    phone: lead.phone,
    first_name: lead.first_name,
    last_name: lead.last_name,
    custom_fields: lead.custom_fields,
    vendor_id: lead.vendor_id,
    vendor_group: vendorGroup,
    source: lead.source,
    created_at: lead.created_at,
    updated_at: lead.updated_at,
  };
}

export interface DuplicateSearch {
  decision: DedupDecision;
  /** The stored lead the decision matched, when it is a duplicate. */
  original: LeadRecord | undefined;
}

/**
 * Decides whether a lead duplicates a stored one: candidates from the blocking-key indexes inside
 * the window and scope, then the pure decision. Shared by the dedup stage and check-duplicate.
 */
export async function findDuplicate(
  repositories: { leads: Pick<LeadRepository, 'findDedupCandidates'>; vendors: Pick<VendorRepository, 'findById'> },
  tenant: TenantContext,
  incoming: DedupIncomingLead,
  config: DedupConfig,
  now: Date,
): Promise<DuplicateSearch> {
  const vendorId = incoming.vendor_id ?? null;
  const groupOf = new Map<string, string | null>();
  const vendorGroup = async (id: string | null): Promise<string | null> => {
    if (!id) return null;
    if (!groupOf.has(id)) groupOf.set(id, (await repositories.vendors.findById(tenant, id))?.group ?? null);
    return groupOf.get(id) ?? null;
  };
  const subject = { ...incoming, vendor_group: incoming.vendor_group ?? (await vendorGroup(vendorId)) };
  const query = buildCandidateQuery({ incoming: subject, config, vendorId, now });
  const candidates = query ? await repositories.leads.findDedupCandidates(tenant, query) : [];
  const dedupCandidates: DedupLead[] = [];
  for (const candidate of candidates) dedupCandidates.push(toDedupLead(candidate, await vendorGroup(candidate.vendor_id)));
  const decision = decideDuplicate({ incoming: subject, candidates: dedupCandidates, config, vendorId, now });
  const original = decision.duplicate ? candidates.find((candidate) => candidate._id === decision.matchedLeadId) : undefined;
  return { decision, original };
}
