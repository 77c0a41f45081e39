/**
 * POST /api/enrichment/test as a use case: read the organization's enrichment configuration (the
 * enrich stage's reader), run it on the lead on a tester thread (enrichment-tester.ts), answer
 * what `enrichLead` predicts. A test the tester stops (time or memory limit) is logged with the
 * size of the configuration, so an operator can tell which organization's rules are too costly.
 */
import type { EnrichmentConfigReader } from '@leadstream/dal';
import { isDomainError, type TenantContext } from '@leadstream/domain';
import type { Logger } from 'pino';
import type { EnrichmentTestAnswer } from './enrichment-test';
import type { EnrichmentTester } from './enrichment-tester';

export type EnrichmentTestUseCase = (
  tenant: TenantContext,
  leadData: Record<string, unknown>,
) => Promise<EnrichmentTestAnswer>;

export interface EnrichmentTestDependencies {
  enrichment: Pick<EnrichmentConfigReader, 'read'>;
  tester: Pick<EnrichmentTester, 'run'>;
  clock: () => Date;
  logger?: Pick<Logger, 'warn'>;
}

export function enrichmentTestUseCase(deps: EnrichmentTestDependencies): EnrichmentTestUseCase {
  return async (tenant, leadData) => {
    const config = await deps.enrichment.read(tenant.organizationId);
    try {
      return await deps.tester.run(leadData, config, deps.clock());
    } catch (error) {
      if (isDomainError(error)) {
        deps.logger?.warn(
          {
            organizationId: tenant.organizationId,
            rules: config.rules.length,
            lookupTables: config.lookupTables.length,
            calculatedFields: config.calculatedFields.length,
            reason: error.message,
          },
          'enrichment test refused',
        );
      }
      throw error;
    }
  };
}
