/**
 * The exported rules document (GET /api/enrichment/rules/export) and its import (POST
 * /api/enrichment/rules/import, which adds the rules with new ids). The document is versioned;
 * its structure is checked by the JSON Schema `schemas/requests/enrichment-rules-export.schema.json`
 * at the route, and every rule again here as on creation, with details prefixed `rules[i].`.
 */
import type { ErrorDetail } from '../errors';
import { parseEnrichmentRuleCreate, type EnrichmentRuleSettings, type KnownNames } from './enrichment-rule';
import type { EnrichmentRule } from './run-rules';

export const RULES_DOCUMENT_FORMAT = 'leadstream.enrichment-rules';
export const RULES_DOCUMENT_VERSION = 1;
export const MAX_IMPORTED_RULES = 500;

export interface RulesDocument {
  format: typeof RULES_DOCUMENT_FORMAT;
  version: typeof RULES_DOCUMENT_VERSION;
  exported_at: string;
  rules: Array<Pick<EnrichmentRule, 'id' | 'name' | 'description' | 'priority' | 'enabled' | 'conditions' | 'actions'>>;
}

export function exportRulesDocument(rules: readonly EnrichmentRule[], exportedAt: string): RulesDocument {
  return {
    format: RULES_DOCUMENT_FORMAT,
    version: RULES_DOCUMENT_VERSION,
    exported_at: exportedAt,
    rules: rules.map(({ id, name, description, priority, enabled, conditions, actions }) => ({
      id,
      name,
      description,
      priority,
      enabled,
      conditions,
      actions,
    })),
  };
}

export function parseRulesImport(
  body: unknown,
  known: KnownNames = {},
): { ok: true; value: EnrichmentRuleSettings[] } | { ok: false; details: ErrorDetail[] } {
  const document = body as Partial<RulesDocument> | null;
  if (
    typeof document !== 'object' ||
    document === null ||
    document.format !== RULES_DOCUMENT_FORMAT ||
    document.version !== RULES_DOCUMENT_VERSION ||
    !Array.isArray(document.rules)
  ) {
    return {
      ok: false,
      details: [
        {
          field: '(body)',
          message: `must be a rules document {format: "${RULES_DOCUMENT_FORMAT}", version: ${RULES_DOCUMENT_VERSION}, rules: [...]}`,
        },
      ],
    };
  }
  if (document.rules.length > MAX_IMPORTED_RULES)
    return { ok: false, details: [{ field: 'rules', message: `at most ${MAX_IMPORTED_RULES} rules per import` }] };
  const details: ErrorDetail[] = [];
  const value: EnrichmentRuleSettings[] = [];
  document.rules.forEach((rule, index) => {
    const { id: _id, ...settings } = (typeof rule === 'object' && rule !== null ? rule : {}) as Record<string, unknown>;
    const parsed = parseEnrichmentRuleCreate(settings, known);
    if (parsed.ok) value.push(parsed.value);
    else
      details.push(
        ...parsed.details.map((detail) => ({ field: `rules[${index}].${detail.field}`, message: detail.message })),
      );
  });
  return details.length > 0 ? { ok: false, details } : { ok: true, value };
}
