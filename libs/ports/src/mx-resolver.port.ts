import type { MxAnswer } from '@leadstream/domain';

/**
 * Looks up MX records of an email domain (docs/decisions.md "Validation"). `MxAnswer` (found / none
 * / unavailable) is a domain type because `validateLead` decides on it; it is re-exported here for
 * engines.
 */
export type { MxAnswer };

export interface MxResolver {
  lookup(domain: string): Promise<MxAnswer>;
  /** For /readyz details and the metric: is DNS working right now? */
  health(): { available: boolean; checkedAt: string | null; reason?: string };
}
