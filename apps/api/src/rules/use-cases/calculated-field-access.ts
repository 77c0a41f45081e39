/** What the calculated field use cases share: the not-found error and the names formulas check against. */
import type { LookupTableRepository } from '@leadstream/dal';
import { DomainError } from '@leadstream/domain';

export const calculatedFieldNotFound = (): DomainError => new DomainError('NOT_FOUND', 'Calculated field not found');

/** What formula parsing checks names against: the organization's lookup tables. */
export async function knownLookupTables(
  deps: { lookupTables: Pick<LookupTableRepository, 'list'> },
  organizationId: string,
) {
  return { lookupTables: new Set((await deps.lookupTables.list(organizationId)).map((table) => table.name)) };
}
