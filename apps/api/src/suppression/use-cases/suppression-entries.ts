/** Entries of a suppression list: add, remove, check one value, and a lead's "do not contact" (docs/suppression-lists.md). */
import type { LeadQueryRepository, SuppressionRepository } from '@leadstream/dal';
import {
  DomainError,
  leadSuppressionKeys,
  parseSuppressionValues,
  suppressionHash,
  type TenantContext,
} from '@leadstream/domain';
import { findSuppressionList, invalidSuppression } from './suppression-lists';

export interface SuppressionEntryDeps {
  suppression: SuppressionRepository;
  clock: () => Date;
}

export interface EntriesChange {
  list_id: string;
  /** Values new to the list (added) or taken off it (removed). */
  count: number;
  entry_count: number;
}

export async function addSuppressionEntries(
  deps: SuppressionEntryDeps,
  tenant: TenantContext,
  listId: string,
  body: unknown,
): Promise<EntriesChange> {
  const list = await findSuppressionList(deps, tenant, listId);
  const parsed = parseSuppressionValues(list.kind, body);
  if (!parsed.ok) throw invalidSuppression(parsed.details);
  const count = await deps.suppression.addEntries(list, parsed.value.hashes, deps.clock());
  return { list_id: list.id, count, entry_count: list.entry_count + count };
}

export async function removeSuppressionEntries(
  deps: SuppressionEntryDeps,
  tenant: TenantContext,
  listId: string,
  body: unknown,
): Promise<EntriesChange> {
  const list = await findSuppressionList(deps, tenant, listId);
  const parsed = parseSuppressionValues(list.kind, body);
  if (!parsed.ok) throw invalidSuppression(parsed.details);
  const count = await deps.suppression.removeEntries(list, parsed.value.hashes);
  return { list_id: list.id, count, entry_count: Math.max(0, list.entry_count - count) };
}

export interface SuppressionCheckResult {
  suppressed: boolean;
  added_at: string | null;
  expires_at: string | null;
}

export async function checkSuppressionValue(
  deps: SuppressionEntryDeps,
  tenant: TenantContext,
  listId: string,
  value: unknown,
  hashed: boolean,
): Promise<SuppressionCheckResult> {
  const list = await findSuppressionList(deps, tenant, listId);
  const hash = typeof value === 'string' ? suppressionHash(list.kind, value, hashed) : null;
  // A value that cannot be an entry of this list (not a valid value of its kind) is not on it.
  const entry = hash === null ? null : await deps.suppression.findEntry(list, hash);
  if (!entry) return { suppressed: false, added_at: null, expires_at: null };
  return {
    suppressed: entry.expires_at === null || entry.expires_at.getTime() > deps.clock().getTime(),
    added_at: entry.added_at.toISOString(),
    expires_at: entry.expires_at?.toISOString() ?? null,
  };
}

/**
 * POST /api/leads/:id/suppress: the lead's email and phone (or, on a domain list, its email's
 * domain) onto the list. A lead without a value of the list's kind is a 400.
 */
export async function suppressLead(
  deps: SuppressionEntryDeps & { leads: Pick<LeadQueryRepository, 'findVisible'> },
  tenant: TenantContext,
  leadId: string,
  body: unknown,
): Promise<EntriesChange> {
  const listId =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)['list_id']
      : undefined;
  const extra = typeof body === 'object' && body !== null ? Object.keys(body).filter((key) => key !== 'list_id') : [];
  if (typeof listId !== 'string' || listId === '' || extra.length > 0)
    throw invalidSuppression([
      ...(typeof listId !== 'string' || listId === '' ? [{ field: 'list_id', message: 'is required' }] : []),
      ...extra.map((key) => ({ field: key, message: 'is not a field of this request' })),
    ]);
  const lead = await deps.leads.findVisible(tenant, leadId);
  if (!lead) throw new DomainError('LEAD_NOT_FOUND', 'Lead not found');
  const list = await findSuppressionList(deps, tenant, listId);
  const key = leadSuppressionKeys(lead)[list.kind];
  if (!key)
    throw invalidSuppression([{ field: 'list_id', message: `the lead has no ${list.kind} to put on this list` }]);
  const count = await deps.suppression.addEntries(list, [key], deps.clock());
  return { list_id: list.id, count, entry_count: list.entry_count + count };
}
