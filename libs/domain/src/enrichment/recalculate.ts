/**
 * Calculated values of a stored lead computed again: after a source field changed (PATCH
 * /api/leads/:id), on manual recalculation, or after a formula changed (docs/formula-language.md).
 * Returns the lead's whole `calculated_fields` object, or null when nothing in it changes.
 */
import {
  calculatedFieldOrder,
  computeCalculatedFields,
  fieldsAffectedBy,
  type CalculatedFieldDefinition,
} from '../formula';
import type { CalculatedValue } from './enrich-lead';
import { ruleSubjectOf } from './enrich-lead';
import { lookupTableMap } from './lookup-map';

export interface RecalculationInput {
  lead: Readonly<Record<string, unknown>>;
  fields: readonly CalculatedFieldDefinition[];
  lookupTables: ReadonlyArray<{ name: string; mappings: Readonly<Record<string, string>> }>;
  /** Names of the fields to recompute (with the fields that depend on them); every field when absent. */
  only?: readonly string[];
  now: Date;
}

export interface Recalculation {
  values: Record<string, CalculatedValue>;
  errors: Array<{ field: string; error: string }>;
}

export function recalculateLead(input: RecalculationInput): Recalculation | null {
  const ordered = calculatedFieldOrder(input.fields);
  const fields = ordered.ok ? ordered.order : input.fields;
  const current = (input.lead['calculated_fields'] ?? {}) as Record<string, CalculatedValue>;
  const computed = computeCalculatedFields(fields, ruleSubjectOf(input.lead), {
    now: input.now,
    lookupTables: lookupTableMap(input.lookupTables),
  });
  const wanted = input.only
    ? new Set([...input.only, ...fieldsAffectedBy(input.only, input.fields)])
    : new Set(fields.map((field) => field.name));
  const values: Record<string, CalculatedValue> = {};
  // Values of fields that no longer exist are dropped; the others keep their value unless recomputed.
  for (const field of fields)
    values[field.name] = wanted.has(field.name) ? (computed.values[field.name] ?? null) : (current[field.name] ?? null);
  const changed = JSON.stringify(values) !== JSON.stringify(current);
  return changed ? { values, errors: computed.errors.filter((error) => wanted.has(error.field)) } : null;
}

/** The lead paths a change touched, as `fieldsAffectedBy` wants them (`custom_fields.<name>` one by one). */
export function changedPaths(changes: Readonly<Record<string, { old: unknown; new: unknown }>>): string[] {
  const paths: string[] = [];
  for (const [field, change] of Object.entries(changes)) {
    if (field !== 'custom_fields') {
      paths.push(field);
      continue;
    }
    const before = (change.old ?? {}) as Record<string, unknown>;
    const after = (change.new ?? {}) as Record<string, unknown>;
    for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (JSON.stringify(before[name]) !== JSON.stringify(after[name])) paths.push(`custom_fields.${name}`);
    }
  }
  return paths;
}
