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
/** What dedup reads of a lead's vendor: its group (scope `vendor_group`) and its type. */
export interface DedupVendorTraits {
  group: string | null;
  type: string | null;
}

export function toDedupLead(lead: LeadRecord, vendor: DedupVendorTraits | null): DedupLead {
  return {
    id: lead._id,
    email: lead.email,
    phone: lead.phone,
    first_name: lead.first_name,
    last_name: lead.last_name,
    custom_fields: lead.custom_fields,
    vendor_id: lead.vendor_id,
    vendor_group: vendor?.group ?? null,
    vendor_type: vendor?.type ?? null,
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
  const traitsOf = new Map<string, DedupVendorTraits | null>();
  const vendorTraits = async (id: string | null): Promise<DedupVendorTraits | null> => {
    if (!id) return null;
    if (!traitsOf.has(id)) {
      const vendor = await repositories.vendors.findById(tenant, id);
      traitsOf.set(id, vendor ? { group: vendor.group ?? null, type: vendor.type ?? null } : null);
    }
    return traitsOf.get(id) ?? null;
  };
  const own = await vendorTraits(vendorId);
  const subject = {
    ...incoming,
    vendor_group: incoming.vendor_group ?? own?.group ?? null,
    vendor_type: incoming.vendor_type ?? own?.type ?? null,
  };
  const query = buildCandidateQuery({ incoming: subject, config, vendorId, now });
  const candidates = query ? await repositories.leads.findDedupCandidates(tenant, query) : [];
  const dedupCandidates: DedupLead[] = [];
  for (const candidate of candidates)
    dedupCandidates.push(toDedupLead(candidate, await vendorTraits(candidate.vendor_id)));
  const decision = decideDuplicate({ incoming: subject, candidates: dedupCandidates, config, vendorId, now });
  const original = decision.duplicate
    ? candidates.find((candidate) => candidate._id === decision.matchedLeadId)
    : undefined;
  return { decision, original };
}
