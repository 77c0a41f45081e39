/**
 * The two views of a lead in the user API: the list item (`LeadSummary`) and the full lead of
 * get-by-id (`Lead`). Built field by field from the documented lists, so pipeline bookkeeping
 * (actor, outbox, version, blocking keys, search copies, flags...) can never leak into a response.
 */
import { LEAD_DETAIL_FIELDS, LEAD_LIST_FIELDS, type LeadRecord } from '@leadstream/domain';

type View = Record<string, unknown>;

function pick(lead: LeadRecord, fields: readonly string[], vendorName: string | null): View {
  const view: View = {};
  for (const field of fields) {
    if (field === 'id') view['id'] = lead._id;
    else if (field === 'vendor_name') view['vendor_name'] = vendorName;
    else view[field] = lead[field] ?? null;
  }
  return view;
}

/** A lead as GET /leads lists it. */
export function leadListItem(lead: LeadRecord): View {
  return pick(lead, LEAD_LIST_FIELDS, null);
}

/**
 * A lead with every field of the lead resource (get, create, update), plus what rules added:
 * calculated values by name, why rules flagged it for review (docs/enrichment-rules.md), and its
 * route. The pipeline's own `flags` stay internal; `validation_status` "flagged" tells a lead is
 * marked.
 */
export function leadDetail(lead: LeadRecord, vendorName: string | null): View {
  return {
    ...pick(lead, LEAD_DETAIL_FIELDS, vendorName),
    calculated_fields: lead['calculated_fields'] ?? {},
    review_flags: lead['review_flags'] ?? [],
    // Where the route stage sent the lead (docs/decisions.md, Routing); null until routed.
    routing: lead.routing
      ? {
          rule_id: lead.routing.rule_id,
          reason: lead.routing.reason,
          targets: lead.routing.targets,
          routed_at: lead.routing.routed_at,
        }
      : null,
  };
}
