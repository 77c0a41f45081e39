/**
 * Calculated fields (docs/formula-language.md; operations `createCalculatedField`, ...) as
 * resources: the request bodies, the order fields are computed in (a field may use another by name;
 * cycles are refused naming them, and chains may be at most 5 fields deep), computing them over a
 * lead, and which fields a change makes stale.
 */
import { trimBlank } from '../accounts/input';
import type { ErrorDetail } from '../errors';
import { RULE_TOP_FIELDS } from '../rules/field-path';
import { formulaLimitProblems, formulaLookupTables, formulaReferences } from './formula-analysis';
import {
  evaluateFormula,
  FORMULA_TYPES,
  type FormulaContext,
  type FormulaType,
  type FormulaValue,
} from './evaluate-formula';
import { parseFormula } from './parse-formula';

export interface CalculatedFieldSettings {
  name: string;
  label: string;
  formula: string;
  type: FormulaType;
  /** Recompute every lead when the formula changes (a background job). */
  recalculate_on_change: boolean;
  description?: string | null;
}

export interface CalculatedFieldDefinition extends CalculatedFieldSettings {
  id: string;
}

export type CalculatedFieldParse = { ok: true; value: CalculatedFieldSettings } | { ok: false; details: ErrorDetail[] };

export const CALCULATED_FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;
export const MAX_DEPENDENCY_DEPTH = 5;
const RESERVED = new Set<string>([
  ...RULE_TOP_FIELDS,
  'id',
  'custom_fields',
  'enrichment_data',
  'calculated_fields',
  'created_at',
  'updated_at',
  'lookup',
  'now',
  'today',
]);
const KEYS = ['name', 'label', 'formula', 'type', 'recalculate_on_change', 'description'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseCalculatedFieldCreate(
  body: unknown,
  existing: readonly CalculatedFieldDefinition[],
  known: { lookupTables: ReadonlySet<string> },
): CalculatedFieldParse {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  return parseField(
    body,
    { name: '', label: '', formula: '', type: 'text', recalculate_on_change: false, description: null },
    existing,
    known,
    null,
  );
}

export function parseCalculatedFieldPatch(
  body: unknown,
  current: CalculatedFieldDefinition,
  existing: readonly CalculatedFieldDefinition[],
  known: { lookupTables: ReadonlySet<string> },
): CalculatedFieldParse {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  if ('name' in body && body['name'] !== current.name)
    return { ok: false, details: [{ field: 'name', message: 'name cannot change: leads hold values under it' }] };
  const { id: _id, ...settings } = current;
  return parseField(body, settings, existing, known, current.id);
}

function parseField(
  body: Record<string, unknown>,
  base: CalculatedFieldSettings,
  existing: readonly CalculatedFieldDefinition[],
  known: { lookupTables: ReadonlySet<string> },
  selfId: string | null,
): CalculatedFieldParse {
  const creating = selfId === null;
  const details: ErrorDetail[] = Object.keys(body)
    .filter((key) => !(KEYS as readonly string[]).includes(key))
    .map((key) => ({ field: key, message: `${key} is not a calculated field setting (${KEYS.join(', ')})` }));
  const value: CalculatedFieldSettings = { ...base };
  if (creating) {
    const name = body['name'];
    if (typeof name !== 'string' || !CALCULATED_FIELD_NAME.test(name))
      details.push({
        field: 'name',
        message: 'name is required: a lowercase identifier of 1-64 characters (a-z, 0-9, _), starting with a letter',
      });
    else if (RESERVED.has(name))
      details.push({ field: 'name', message: `${name} is a lead field; choose another name` });
    else value.name = name;
  }
  if (creating || 'label' in body) {
    const label = body['label'];
    if (typeof label !== 'string' || trimBlank(label) === '' || label.length > 100)
      details.push({ field: 'label', message: 'label is required: text of 1-100 characters' });
    else value.label = trimBlank(label);
  }
  if (creating || 'type' in body) {
    const type = body['type'];
    if (typeof type !== 'string' || !(FORMULA_TYPES as readonly string[]).includes(type))
      details.push({ field: 'type', message: `type is required: one of ${FORMULA_TYPES.join(', ')}` });
    else value.type = type as FormulaType;
  }
  if ('recalculate_on_change' in body) {
    if (typeof body['recalculate_on_change'] !== 'boolean')
      details.push({ field: 'recalculate_on_change', message: 'recalculate_on_change must be true or false' });
    else value.recalculate_on_change = body['recalculate_on_change'];
  }
  if ('description' in body) {
    const description = body['description'];
    if (description !== null && (typeof description !== 'string' || description.length > 1000))
      details.push({ field: 'description', message: 'description must be text of at most 1000 characters, or null' });
    else value.description = description;
  }
  if (creating || 'formula' in body) {
    const formula = body['formula'];
    if (typeof formula !== 'string' || formula.trim() === '')
      details.push({
        field: 'formula',
        message: 'formula is required: a template such as {{first_name}} {{last_name}}',
      });
    else {
      const problems = formulaProblems(formula, known);
      if (problems.length > 0) details.push(...problems.map((message) => ({ field: 'formula', message })));
      else value.formula = formula;
    }
  }
  if (details.length > 0) return { ok: false, details };
  // Dependencies over the organization's fields with this one in place.
  const others = existing.filter((field) => field.id !== selfId && field.name !== value.name);
  const order = calculatedFieldOrder([...others, { ...value, id: selfId ?? '(new)' }]);
  if (!order.ok) return { ok: false, details: [{ field: 'formula', message: order.problem }] };
  return { ok: true, value };
}

function formulaProblems(formula: string, known: { lookupTables: ReadonlySet<string> }): string[] {
  const parsed = parseFormula(formula);
  if (!parsed.ok) return [parsed.error.message];
  const problems = formulaLimitProblems(formula, parsed.ast);
  for (const table of formulaLookupTables(parsed.ast))
    if (!known.lookupTables.has(table)) problems.push(`no lookup table named ${table}`);
  return problems;
}

/** Names of the other calculated fields a field reads (by name or as calculated_fields.<name>). */
function dependencies(field: CalculatedFieldSettings, names: ReadonlySet<string>): string[] {
  const parsed = parseFormula(field.formula);
  if (!parsed.ok) return [];
  return formulaReferences(parsed.ast)
    .map((path) =>
      path.startsWith('calculated_fields.')
        ? path.slice('calculated_fields.'.length).split('.')[0]!
        : path.split('.')[0]!,
    )
    .filter((name, index, all) => names.has(name) && all.indexOf(name) === index);
}

export function calculatedFieldOrder<T extends CalculatedFieldSettings>(
  fields: readonly T[],
): { ok: true; order: T[] } | { ok: false; problem: string } {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const names = new Set(byName.keys());
  const order: T[] = [];
  const depth = new Map<string, number>();
  const visiting: string[] = [];
  const visit = (field: T): string | null => {
    if (depth.has(field.name)) return null;
    const cycleStart = visiting.indexOf(field.name);
    if (cycleStart >= 0) return `circular dependency: ${[...visiting.slice(cycleStart), field.name].join(' -> ')}`;
    visiting.push(field.name);
    let deepest = 0;
    for (const name of dependencies(field, names)) {
      const problem = visit(byName.get(name)!);
      if (problem) return problem;
      deepest = Math.max(deepest, depth.get(name)!);
    }
    visiting.pop();
    if (deepest + 1 > MAX_DEPENDENCY_DEPTH)
      return `calculated fields may depend on each other at most ${MAX_DEPENDENCY_DEPTH} levels deep (${field.name} is ${deepest + 1} levels deep)`;
    depth.set(field.name, deepest + 1);
    order.push(field);
    return null;
  };
  for (const field of fields) {
    const problem = visit(field);
    if (problem) return { ok: false, problem };
  }
  return { ok: true, order };
}

export function computeCalculatedFields(
  order: readonly CalculatedFieldSettings[],
  subject: Readonly<Record<string, unknown>>,
  context: FormulaContext,
): { values: Record<string, FormulaValue>; errors: Array<{ field: string; error: string }> } {
  const values: Record<string, FormulaValue> = {};
  const errors: Array<{ field: string; error: string }> = [];
  let current: Record<string, unknown> = { ...subject, calculated_fields: { ...(subject['calculated_fields'] ?? {}) } };
  for (const field of order) {
    const parsed = parseFormula(field.formula);
    const result = parsed.ok
      ? evaluateFormula(parsed.ast, current, field.type, context)
      : { ok: false as const, error: parsed.error.message };
    const value = result.ok ? result.value : null;
    if (!result.ok) errors.push({ field: field.name, error: result.error });
    values[field.name] = value;
    current = {
      ...current,
      [field.name]: value,
      calculated_fields: { ...(current['calculated_fields'] as Record<string, unknown>), [field.name]: value },
    };
  }
  return { values, errors };
}

export function fieldsAffectedBy(
  changedPaths: readonly string[],
  fields: readonly CalculatedFieldSettings[],
): string[] {
  const stale = new Set<string>();
  const touches = (reference: string, changed: string) =>
    reference === changed || reference.startsWith(`${changed}.`) || changed.startsWith(`${reference}.`);
  const names = new Set(fields.map((field) => field.name));
  let frontier = [...changedPaths];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const field of fields) {
      if (stale.has(field.name)) continue;
      const parsed = parseFormula(field.formula);
      if (!parsed.ok) continue;
      const references = formulaReferences(parsed.ast);
      if (references.some((reference) => frontier.some((changed) => touches(reference, changed)))) {
        stale.add(field.name);
        next.push(field.name, `calculated_fields.${field.name}`);
      }
    }
    frontier = next.filter((path) => names.has(path.replace(/^calculated_fields\./, '')));
  }
  return [...stale];
}
