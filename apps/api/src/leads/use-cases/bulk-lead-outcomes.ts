/** The outcome of a bulk operation on leads: not all-or-nothing, each id reports its own. */
import type { LeadWriteResult } from './lead-writer';

export type BulkLeadOutcome =
  { id: string; success: true } | { id: string; success: false; error: { code: 'LEAD_NOT_FOUND'; message: string } };

export interface BulkLeadsResult {
  results: BulkLeadOutcome[];
  succeeded: number;
  failed: number;
}

export async function eachLead(
  ids: readonly string[],
  apply: (id: string) => Promise<LeadWriteResult | null>,
): Promise<BulkLeadsResult> {
  const results: BulkLeadOutcome[] = [];
  for (const id of ids) {
    const outcome = await apply(id);
    results.push(
      outcome
        ? { id, success: true }
        : { id, success: false, error: { code: 'LEAD_NOT_FOUND', message: 'Lead not found' } },
    );
  }
  const succeeded = results.filter((result) => result.success).length;
  return { results, succeeded, failed: results.length - succeeded };
}
