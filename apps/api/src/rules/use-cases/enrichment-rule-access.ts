/**
 * What the enrichment rule use cases share: the errors, new ids, the names rule parsing checks
 * against, the formula and webhook-target checks, and the announcement of every write.
 */
import { randomUUID } from 'node:crypto';
import type { CustomFieldRepository, LookupTableRepository } from '@leadstream/dal';
import { DomainError, ruleFormulaProblems, type EnrichmentRuleSettings, type ErrorDetail } from '@leadstream/domain';
import { checkTarget, type OutboundOptions } from '@leadstream/runtime';
import type { SchemaError } from '@leadstream/schemas';

/** How webhook action targets are checked: WEBHOOK_ALLOW_INSECURE_TARGETS and the name resolution (tests pass their own). */
export type RuleTargetOptions = { allowInsecureTargets: boolean } & Pick<OutboundOptions, 'resolve'>;

export const enrichmentRuleNotFound = (): DomainError => new DomainError('NOT_FOUND', 'Enrichment rule not found');
export const invalidEnrichmentRule = (details: ErrorDetail[]): DomainError =>
  new DomainError('VALIDATION_ERROR', 'Invalid enrichment rule', details);

export function ruleId(): string {
  return `rule_${randomUUID().replace(/-/g, '')}`;
}

export interface KnownNamesDeps {
  lookupTables: Pick<LookupTableRepository, 'list'>;
  customFields: Pick<CustomFieldRepository, 'list'>;
}

/** What rule parsing checks names against: the organization's custom fields and lookup tables. */
export async function knownNames(deps: KnownNamesDeps, organizationId: string) {
  const [customFields, tables] = await Promise.all([
    deps.customFields.list(organizationId),
    deps.lookupTables.list(organizationId),
  ]);
  return { customFields, lookupTables: new Set(tables.map((table) => table.name)) };
}

/** The parsed settings, or VALIDATION_ERROR with the parse or formula problems. */
export function checkedRuleSettings(
  parsed: { ok: true; value: EnrichmentRuleSettings } | { ok: false; details: ErrorDetail[] },
  prefix = '',
): EnrichmentRuleSettings {
  if (!parsed.ok) throw invalidEnrichmentRule(parsed.details);
  const problems = ruleFormulaProblems(parsed.value, prefix);
  if (problems.length > 0) throw invalidEnrichmentRule(problems);
  return parsed.value;
}

/**
 * Webhook actions must target https URLs resolving to public addresses, as webhooks must when
 * saved (the rule-webhook stage checks again on every call).
 */
export async function webhookTargetProblems(
  outbound: RuleTargetOptions,
  settings: EnrichmentRuleSettings,
  prefix = '',
): Promise<ErrorDetail[]> {
  const problems: ErrorDetail[] = [];
  for (const [index, action] of settings.actions.entries()) {
    if (action.type !== 'webhook') continue;
    const target = await checkTarget(action.url, outbound);
    if (!target.ok) problems.push({ field: `${prefix}actions[${index}].url`, message: `url ${target.error}` });
  }
  return problems;
}

/** ajv's errors as `{field, message}` with dotted paths (`rules[0].name`). */
export function schemaDetails(error: SchemaError): ErrorDetail[] {
  return error.errors.map((entry) => {
    const path = entry.instancePath
      .split('/')
      .filter(Boolean)
      .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
      .join('')
      .replace(/^\./, '');
    const missing =
      entry.keyword === 'required' ? String((entry.params as { missingProperty?: string }).missingProperty) : undefined;
    const extra =
      entry.keyword === 'additionalProperties'
        ? String((entry.params as { additionalProperty?: string }).additionalProperty)
        : undefined;
    const field = [path, missing ?? extra].filter(Boolean).join(path && (missing ?? extra) ? '.' : '') || '(body)';
    return { field, message: `${field} ${entry.message ?? 'is invalid'}` };
  });
}
