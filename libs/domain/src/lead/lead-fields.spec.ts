import { describe, expect, it } from 'vitest';
import { CRM_MAPPABLE_TOP_FIELDS } from '../crm/crm-connection';
import { RULE_SUBJECT_FIELDS } from '../enrichment/enrich-lead';
import { DEFAULT_EXPORT_FIELDS, EXPORT_FIELDS } from '../exports/export';
import { RULE_TOP_FIELDS, RULE_WRITABLE_TOP_FIELDS } from '../rules/field-path';
import { LEAD_FIELDS, leadFields, leadFieldsExcept } from './lead-fields';
import { LEAD_DETAIL_FIELDS, LEAD_LIST_FIELDS } from './lead-list-query';
import { SUBMISSION_TEXT_FIELDS } from './lead-submission';

describe('the lead field lists, all from LEAD_FIELDS', () => {
  it('name only lead fields, in the order given', () => {
    expect(leadFields('phone', 'email')).toEqual(['phone', 'email']);
    // @ts-expect-error not a lead field
    leadFields('shoe_size');
    expect(leadFieldsExcept(...LEAD_FIELDS.filter((field) => field !== 'email' && field !== 'id'))).toEqual([
      'id',
      'email',
    ]);
  });

  it('keep the meaning each list had', () => {
    expect(LEAD_LIST_FIELDS).toEqual([
      'id',
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
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'custom_fields',
      'enrichment_data',
      'created_at',
      'updated_at',
    ]);
    expect(LEAD_DETAIL_FIELDS).toEqual([
      ...LEAD_LIST_FIELDS,
      'vendor_name',
      'landing_page',
      'referrer',
      'utm_term',
      'utm_content',
      'validation_status',
      'duplicate_of',
      'crm_sync_status',
      'crm_id',
      'crm_synced_at',
      'deleted_at',
    ]);
    expect([...LEAD_DETAIL_FIELDS].sort()).toEqual([...LEAD_FIELDS].sort());
    expect(EXPORT_FIELDS).toEqual([
      'id',
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
      'custom_fields',
      'enrichment_data',
      'validation_status',
      'duplicate_of',
      'crm_sync_status',
      'crm_id',
      'crm_synced_at',
      'created_at',
      'updated_at',
      // Export-only: why a rejected lead was refused (docs/suppression-lists.md).
      'rejection_reason',
    ]);
    expect(DEFAULT_EXPORT_FIELDS).toEqual(LEAD_LIST_FIELDS);
    expect(RULE_TOP_FIELDS).toEqual([
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
    ]);
    expect(RULE_SUBJECT_FIELDS).toEqual(RULE_TOP_FIELDS);
    expect(RULE_WRITABLE_TOP_FIELDS).toEqual([
      'email',
      'first_name',
      'last_name',
      'phone',
      'source',
      'program',
      'program_interest',
      'landing_page',
      'referrer',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'utm_term',
      'utm_content',
    ]);
    expect(SUBMISSION_TEXT_FIELDS).toEqual([
      'email',
      'first_name',
      'last_name',
      'phone',
      'program_interest',
      'source',
      'ip_address',
      'user_agent',
      'landing_page',
      'referrer',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'utm_term',
      'utm_content',
    ]);
    expect(CRM_MAPPABLE_TOP_FIELDS).toEqual([
      'id',
      'email',
      'first_name',
      'last_name',
      'phone',
      'source',
      'program',
      'program_interest',
      'vendor_id',
      'status',
      'landing_page',
      'referrer',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'utm_term',
      'utm_content',
      'created_at',
      'submitted_at',
      'owner',
      'queue',
    ]);
  });
});
