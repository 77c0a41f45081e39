/**
 * What the enrich stage does to one lead, and what POST /api/enrichment/test predicts: the same
 * function, so a test answer and an ingested lead cannot disagree (docs/decisions.md "Rules").
 *
 * 1. Calculated fields are computed on the lead as it arrived, so rules can read them by name.
 * 2. The organization's enabled rules run in priority order (docs/enrichment-rules.md), `calculate`
 *    actions evaluating the formula language.
 * 3. When a rule changed the lead, the calculated fields are computed again on the result.
 *
 * Pure: the rule webhooks come back as requests; the stage sends them.
 */
import type { LeadRecord } from '../lead/lead';
import { withFields } from '../lead/with-fields';
import { lookupTableMap } from './lookup-map';
import {
  calculate,
  calculatedFieldOrder,
  computeCalculatedFields,
  type CalculatedFieldDefinition,
  type FormulaType,
} from '../formula';
import {
  RULE_TOP_FIELDS,
  RULE_WRITABLE_TOP_FIELDS,
  runRules,
  type EnrichmentRule,
  type RuleRun,
  type RuleSubject,
} from '../rules';

export type CalculatedValue = string | number | boolean | null;

export interface EnrichmentConfig {
  /** Every rule of the organization; disabled ones are skipped by runRules. */
  rules: readonly EnrichmentRule[];
  lookupTables: ReadonlyArray<{ name: string; mappings: Readonly<Record<string, string>> }>;
  calculatedFields: readonly CalculatedFieldDefinition[];
  /** Declared types of the organization's custom fields: a `calculate` into a number field yields a number. */
  customFieldTypes: ReadonlyMap<string, string>;
}

export interface EnrichmentOutcome {
  run: RuleRun;
  /** The lead after rules and calculations (the rule subject). */
  subject: RuleSubject;
  calculated: Record<string, CalculatedValue>;
  calculationErrors: Array<{ field: string; error: string }>;
}

/** The lead fields a rule sees and may change, plus calculated values by name. */
export const RULE_SUBJECT_FIELDS = RULE_TOP_FIELDS;

/** Fields a rule may write back to the stored lead (everything the subject has but the identity and status). */
const WRITABLE_FIELDS = RULE_WRITABLE_TOP_FIELDS;

export function ruleSubjectOf(lead: Partial<Record<string, unknown>>): RuleSubject {
  const subject: RuleSubject = {};
  for (const field of RULE_SUBJECT_FIELDS) if (lead[field] !== undefined) subject[field] = lead[field];
  subject['custom_fields'] = isObject(lead['custom_fields']) ? { ...lead['custom_fields'] } : {};
  subject['enrichment_data'] = isObject(lead['enrichment_data']) ? { ...lead['enrichment_data'] } : {};
  const calculated = isObject(lead['calculated_fields']) ? lead['calculated_fields'] : {};
  return withCalculated(subject, calculated);
}

export function enrichLead(subject: RuleSubject, config: EnrichmentConfig, now: Date): EnrichmentOutcome {
  const context = { now, lookupTables: lookupTableMap(config.lookupTables) };
  const ordered = calculatedFieldOrder(config.calculatedFields);
  const fields = ordered.ok ? ordered.order : config.calculatedFields;
  const first = computeCalculatedFields(fields, subject, context);
  const run = runRules(config.rules, withCalculated(subject, first.values), {
    lookupTables: context.lookupTables,
    calculate: (formula, current, field) =>
      calculate(formula, current, calculateTypeOf(field, config.customFieldTypes), context),
  });
  if (run.final_outcome === 'rejected' || run.changes.length === 0) {
    return { run, subject: run.subject, calculated: first.values, calculationErrors: first.errors };
  }
  const second = computeCalculatedFields(fields, run.subject, context);
  return {
    run,
    subject: withCalculated(run.subject, second.values),
    calculated: second.values,
    calculationErrors: second.errors,
  };
}

/** The type a `calculate` action into this path produces. */
export function calculateTypeOf(path: string, customFieldTypes: ReadonlyMap<string, string>): FormulaType {
  const custom = path.startsWith('custom_fields.')
    ? customFieldTypes.get(path.slice('custom_fields.'.length))
    : undefined;
  if (custom === 'number') return 'number';
  if (custom === 'boolean') return 'boolean';
  if (custom === 'date') return 'date';
  return 'text';
}

/** The stored lead with the enriched subject's writable fields, custom fields, enrichment data and calculated values. */
export function applyEnrichment<T extends LeadRecord>(lead: T, outcome: EnrichmentOutcome): T {
  // withFields, not a spread: fields are added to the copy below (lead/with-fields.ts says why).
  const next: Record<string, unknown> = withFields<Record<string, unknown>>(lead, {});
  for (const field of WRITABLE_FIELDS) {
    const value = outcome.subject[field];
    if (value === undefined) continue;
    next[field] = asLeadText(value);
  }
  next['custom_fields'] = isObject(outcome.subject['custom_fields'])
    ? outcome.subject['custom_fields']
    : lead.custom_fields;
  next['enrichment_data'] = isObject(outcome.subject['enrichment_data'])
    ? outcome.subject['enrichment_data']
    : lead.enrichment_data;
  if (Object.keys(outcome.calculated).length > 0 || lead['calculated_fields'] !== undefined)
    next['calculated_fields'] = outcome.calculated;
  return next as T;
}

/** These lead fields hold text: other values a rule wrote are stored as their text. */
function asLeadText(value: unknown): string | null {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function withCalculated(subject: RuleSubject, values: Readonly<Record<string, unknown>>): RuleSubject {
  return { ...subject, ...values, calculated_fields: { ...values } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
