import type { DedupConfig, DedupMatchFieldName, DedupScope } from './dedup-config';
import { effectiveConfig } from './dedup-config';
import type { DedupIncomingLead, DedupLead } from './dedup.types';
import { blockingKeyFields, type BlockingKeyFields } from './normalize';

/**
 * What the repository must ask for: leads having any of `blocking_keys` (an indexed `IN`), created at
 * or after `created_after` (null = all time), restricted to a vendor or a vendor group by scope.
 */
export interface DedupCandidateQuery {
  /** Prefixed keys for a multikey index (`e:`, `p:`, `n:`). */
  blocking_keys: string[];
  /** The same keys per kind (null = do not query that kind), for scalar indexes bk_email/bk_phone/bk_name. */
  keys: BlockingKeyFields;
  created_after: string | null;
  vendor_id: string | null;
  vendor_group: string | null;
  exclude_lead_id: string | null;
}

/** Start of the window, or null for all time. */
export function windowStart(windowHours: DedupConfig['window_hours'], now: Date): Date | null {
  return windowHours === null ? null : new Date(now.getTime() - windowHours * 3_600_000);
}

const KEY_KIND_BY_FIELD: Partial<Record<DedupMatchFieldName, keyof BlockingKeyFields>> = {
  email: 'email',
  phone: 'phone',
  first_name: 'name',
  last_name: 'name',
  name: 'name',
};

/**
 * The resolved scope of one check. `within_vendor` without a vendor (a user's check-duplicate call)
 * falls back to all vendors; `vendor_group` for a vendor in no group means its own vendor only.
 */
export function resolveScope(
  scope: DedupScope,
  vendorId: string | null | undefined,
  vendorGroup: string | null | undefined,
): { vendor_id: string | null; vendor_group: string | null } {
  if (scope === 'within_vendor' && vendorId) return { vendor_id: vendorId, vendor_group: null };
  if (scope === 'vendor_group') {
    if (vendorGroup) return { vendor_id: null, vendor_group: vendorGroup };
    if (vendorId) return { vendor_id: vendorId, vendor_group: null };
  }
  return { vendor_id: null, vendor_group: null };
}

/**
 * The candidate lookup for one incoming lead, with the vendor's overrides applied; null when dedup
 * is off or the lead has no key to look up (then there is no candidate, not "scan everything").
 * Only keys of configured fields are queried; custom fields have no blocking key, so a configuration
 * matching on custom fields alone finds no candidates.
 */
export function buildCandidateQuery(args: {
  incoming: DedupIncomingLead;
  config: DedupConfig;
  vendorId: string | null | undefined;
  now: Date;
}): DedupCandidateQuery | null {
  const config = effectiveConfig(args.config, args.vendorId);
  if (!config.enabled) return null;
  const kinds = new Set(config.match_fields.map((f) => KEY_KIND_BY_FIELD[f.field]).filter((k) => k !== undefined));
  const all = blockingKeyFields(args.incoming);
  const keys: BlockingKeyFields = {
    email: kinds.has('email') ? all.email : null,
    phone: kinds.has('phone') ? all.phone : null,
    name: kinds.has('name') ? all.name : null,
  };
  const blocking_keys = [
    keys.email === null ? null : `e:${keys.email}`,
    keys.phone === null ? null : `p:${keys.phone}`,
    keys.name === null ? null : `n:${keys.name}`,
  ].filter((k) => k !== null);
  if (blocking_keys.length === 0) return null;
  const start = windowStart(config.window_hours, args.now);
  return {
    blocking_keys,
    keys,
    created_after: start === null ? null : start.toISOString(),
    ...resolveScope(config.scope, args.vendorId, args.incoming.vendor_group),
    exclude_lead_id: args.incoming.id ?? null,
  };
}

/** Pure re-check of what the query should have done; decideDuplicate applies it as a guard. */
export function isCandidateEligible(
  candidate: DedupLead,
  query: Pick<DedupCandidateQuery, 'created_after' | 'vendor_id' | 'vendor_group' | 'exclude_lead_id'>,
): boolean {
  if (query.exclude_lead_id !== null && candidate.id === query.exclude_lead_id) return false;
  if (query.created_after !== null && Date.parse(candidate.created_at) < Date.parse(query.created_after)) return false;
  if (query.vendor_id !== null && candidate.vendor_id !== query.vendor_id) return false;
  if (query.vendor_group !== null && candidate.vendor_group !== query.vendor_group) return false;
  return true;
}
