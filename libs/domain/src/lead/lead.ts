import type { ErrorDetail } from '../errors';
import type { Environment } from '../tenant';
import type { LeadFlag, RejectionReason } from '../validation/validation.types';
import type { CustomFieldValue } from './lead-submission';
import type { PersistedLeadActor } from './lead.machine';
import type { LeadRoute } from '../routing/route-lead';

/** Lead statuses (docs/api-conventions.md "Statuses"). */
export const LEAD_STATUSES = [
  'new',
  'active',
  'contacted',
  'qualified',
  'converted',
  'rejected',
  'duplicate',
  'archived',
] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/**
 * A lead as stored: the fields the API shows (`Lead` in the OpenAPI document), the tenant, the
 * pipeline's bookkeeping and the persisted actor. Timestamps are ISO strings except `expires_at` (a
 * Date, for the TTL index of sandbox leads).
 */
export interface LeadRecord {
  _id: string;
  organization_id: string;
  environment: Environment;
  vendor_id: string;
  status: LeadStatus;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  source: string | null;
  program: string | null;
  program_interest: string | null;
  ip_address: string | null;
  user_agent: string | null;
  landing_page: string | null;
  referrer: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  custom_fields: Record<string, CustomFieldValue>;
  enrichment_data: Record<string, CustomFieldValue>;
  validation_status: 'pending' | 'passed' | 'flagged' | 'failed';
  enrichment_status: 'pending' | 'completed' | 'skipped';
  duplicate_of: string | null;
  similarity_score: number | null;
  crm_sync_status: 'pending' | 'synced' | 'failed' | 'not_applicable';
  crm_id: string | null;
  crm_synced_at: string | null;
  flags: LeadFlag[];
  warnings: ErrorDetail[];
  rejection_reason: RejectionReason | null;
  rule_id: string | null;
  /** Normalized email: the key of leads.submitted, so decisions about one person are serialized. */
  dedup_key: string;
  /** Blocking keys the dedup stage looks candidates up by (indexed scalars, so no array scans). */
  bk_email: string | null;
  bk_phone: string | null;
  bk_name: string | null;
  /** Whether the dedup stage let this lead through: only such leads are candidates for later ones. */
  dedup_status: 'pending' | 'unique' | 'duplicate';
  submitted_at: string;
  processed_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Sandbox leads disappear 24 h after creation (docs/api-conventions.md "Authentication", the sandbox). */
  expires_at: Date | null;
  actor: PersistedLeadActor;
  /** Compare-and-set version of the document, bumped by every stage write. */
  version: number;
  /** Ids of the pipeline messages already applied, so a redelivered message changes nothing. */
  applied_messages: string[];
  /**
   * Outputs of the last batch write not yet confirmed produced (transactional outbox). Used only
   * where the store and the log are different systems; the embedded engines commit both at once.
   */
  outbox: Array<{ topic: string; key: string; value: string; headers?: Record<string, string> }>;
  /** When the outbox was filled (null when empty): the outbox sweeper flushes ones left behind by a crash. */
  outbox_at?: string | null;
  /** Id of the batch write that stored this state, to tell whose compare-and-set won. */
  write_id?: string;
  /** Where the route stage sent the lead (docs/routing.md); absent until routed. */
  routing?: LeadRoute | null;
  [key: string]: unknown;
}
