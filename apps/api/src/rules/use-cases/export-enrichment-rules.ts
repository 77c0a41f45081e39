/** GET /api/enrichment/rules/export: the versioned rules document of the organization. */
import type { EnrichmentRuleRepository } from '@leadstream/dal';
import { exportRulesDocument, type RulesDocument, type TenantContext } from '@leadstream/domain';

export interface ExportEnrichmentRulesDeps {
  rules: Pick<EnrichmentRuleRepository, 'list'>;
  clock: () => Date;
}

export interface ExportEnrichmentRulesInput {
  tenant: TenantContext;
}

export interface ExportEnrichmentRulesResult {
  document: RulesDocument;
  /** When it was made (ISO 8601), as in the document. */
  exportedAt: string;
}

export async function exportEnrichmentRules(
  deps: ExportEnrichmentRulesDeps,
  input: ExportEnrichmentRulesInput,
): Promise<ExportEnrichmentRulesResult> {
  const exportedAt = deps.clock().toISOString();
  return { document: exportRulesDocument(await deps.rules.list(input.tenant.organizationId), exportedAt), exportedAt };
}
