/**
 * The fields of a lead, defined once: every field of the lead resource (`Lead` in the OpenAPI
 * document), in its order. Each list of lead fields elsewhere (the list and detail views, export
 * columns, what rules read and write, what a CRM mapping or webhook body may carry, what a
 * submission holds as text) is a subset of this one, named field by field with `leadFields` or
 * as "all but" with `leadFieldsExcept`, so a field added or renamed here is checked everywhere.
 */
export const LEAD_FIELDS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'phone',
  'status',
  'source',
  'vendor_id',
  'vendor_name',
  'program',
  'program_interest',
  'ip_address',
  'user_agent',
  'landing_page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'custom_fields',
  'enrichment_data',
  'validation_status',
  'duplicate_of',
  'crm_sync_status',
  'crm_id',
  'crm_synced_at',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;
export type LeadField = (typeof LEAD_FIELDS)[number];

/** The lead fields named, in the order named (the compiler refuses a name that is not a lead field). */
export function leadFields<const F extends readonly LeadField[]>(...fields: F): F {
  return fields;
}

/** Every lead field but those named, in the resource's order. */
export function leadFieldsExcept<const E extends LeadField>(
  ...excluded: readonly E[]
): ReadonlyArray<Exclude<LeadField, E>> {
  return LEAD_FIELDS.filter(
    (field): field is Exclude<LeadField, E> => !(excluded as readonly LeadField[]).includes(field),
  );
}

/** The lead's own scalar fields that rules, calculated fields and validation see (no identity, bookkeeping or nested objects). */
export const LEAD_SUBJECT_FIELDS = leadFields(
  'email',
  'first_name',
  'last_name',
  'phone',
  'status',
  'source',
  'vendor_id',
  'program',
  'program_interest',
  'ip_address',
  'user_agent',
  'landing_page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
);
