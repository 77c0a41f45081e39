/**
 * The slice of a lead that deduplication reads. Stored rows and inbound submissions are
 * mapped to this shape by the caller; dedup never sees the rest of the lead.
 */
export interface DedupLeadFields {
  email?: string | null;
  phone?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  custom_fields?: Record<string, unknown> | null;
}

/** A stored lead that can be matched (a candidate). */
export interface DedupLead extends DedupLeadFields {
  id: string;
  vendor_id: string | null;
  /** Vendor group of the lead's vendor; only needed for scope `vendor_group`. */
  vendor_group?: string | null;
  /** Type of the lead's vendor (`inquiry`, `application`); null when unknown (no vendor, or deleted). */
  vendor_type?: string | null;
  source: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * The lead being checked: an inbound submission (no id yet) or a `POST /dedup/check-duplicate`
 * body. `created_at` is when it was submitted; absent means "now".
 */
export interface DedupIncomingLead extends DedupLeadFields {
  id?: string | null;
  vendor_id?: string | null;
  vendor_group?: string | null;
  vendor_type?: string | null;
  source?: string | null;
  created_at?: string | null;
}
