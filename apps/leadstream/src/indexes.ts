import { CustomFieldRepository, DedupRepository, ensureIndexes, LeadActivityRepository, LeadRepository } from '@leadstream/dal';
import type { DocumentStore } from '@leadstream/ports';

/** Every index of every repository; idempotent, run at each start of a process that uses the store. */
export async function ensureAllIndexes(store: DocumentStore): Promise<void> {
  await ensureIndexes(store);
  await LeadRepository.ensureIndexes(store);
  await LeadActivityRepository.ensureIndexes(store);
  await DedupRepository.ensureIndexes(store);
  await CustomFieldRepository.ensureIndexes(store);
}
