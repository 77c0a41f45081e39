/**
 * Evaluating a parsed formula against a lead (docs/formula-language.md). Inside a tag values keep
 * their types (numbers do arithmetic through filters, lists come from split); at the template
 * level they render as text. A formula that is a single tag keeps the tag's typed value. The
 * result is coerced to the field's declared type. Never throws: a runtime problem (division by
 * zero, a bad date, text where a number is needed) is `{ok: false, error}`.
 */
import { asInstant, asNumber } from '../rules/condition';
import { getFieldValue } from '../rules/field-path';
import type { Expr, FilterCall, FormulaAst, FormulaNode } from './formula-ast';
import { parseFormula } from './parse-formula';

export type FormulaType = 'text' | 'number' | 'date' | 'boolean';
export const FORMULA_TYPES: readonly FormulaType[] = ['text', 'number', 'date', 'boolean'];

export interface FormulaContext {
  now: Date;
  lookupTables: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

export type FormulaValue = string | number | boolean | null;
export type FormulaResult = { ok: true; value: FormulaValue } | { ok: false; error: string };

type Value = string | number | boolean | null | Value[];

class FormulaRuntimeError extends Error {}

const fail = (message: string): never => {
  throw new FormulaRuntimeError(message);
};

export function evaluateFormula(
  ast: FormulaAst,
  subject: Readonly<Record<string, unknown>>,
  type: FormulaType,
  context: FormulaContext,
): FormulaResult {
  try {
    const evaluator = new Evaluator(subject, context);
    const single = ast.length === 1 && ast[0]!.kind === 'output' ? ast[0] : undefined;
    const raw: Value = single && single.kind === 'output' ? evaluator.output(single) : evaluator.render(ast);
    return { ok: true, value: coerce(raw, type) };
  } catch (error) {
    if (error instanceof FormulaRuntimeError) return { ok: false, error: error.message };
    if (error instanceof RangeError)
      return { ok: false, error: 'the formula could not be computed (a value out of range)' };
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Parse and evaluate in one step; a parse error is an error result. */
export function calculate(
  source: string,
  subject: Readonly<Record<string, unknown>>,
  type: FormulaType,
  context: FormulaContext,
): FormulaResult {
  const parsed = parseFormula(source);
  return parsed.ok ? evaluateFormula(parsed.ast, subject, type, context) : { ok: false, error: parsed.error.message };
}

export function renderText(value: Value): string {
  if (value === null) return '';
  if (Array.isArray(value)) return value.map(renderText).join(', ');
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
  return String(value);
}

function coerce(value: Value, type: FormulaType): FormulaValue {
  if (Array.isArray(value)) value = renderText(value);
  switch (type) {
    case 'text':
      return renderText(value);
    case 'number': {
      if (value === null || value === '') return null;
      if (typeof value === 'boolean') return value ? 1 : 0;
      const number = asNumber(value);
      return number === undefined ? fail(`${JSON.stringify(value)} is not a number`) : number;
    }
    case 'date': {
      if (value === null || value === '') return null;
      if (
        typeof value === 'string' &&
        /^\d{4}-\d{2}-\d{2}$/.test(value.trim()) &&
        asInstant(value.trim()) !== undefined
      )
        return value.trim();
      const time = asInstant(value);
      return time === undefined ? fail(`${JSON.stringify(value)} is not a date`) : new Date(time).toISOString();
    }
    case 'boolean': {
      if (value === null || value === '') return null;
      if (typeof value === 'boolean') return value;
      const text = String(value).trim().toLowerCase();
      if (['true', 'yes', '1'].includes(text)) return true;
      if (['false', 'no', '0'].includes(text)) return false;
      return fail(`${JSON.stringify(value)} is not true or false`);
    }
  }
}

/** Falsy: null, missing, false, empty text and empty lists; everything else (0 too) is true. */
function truthy(value: Value): boolean {
  if (value === null || value === false || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

function toValue(raw: unknown): Value {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string' || typeof raw === 'boolean') return raw;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (Array.isArray(raw)) return raw.map(toValue);
  return JSON.stringify(raw);
}

function number(value: Value, what: string): number {
  const parsed = Array.isArray(value) ? undefined : asNumber(value);
  return parsed === undefined
    ? fail(`${what} needs a number, got ${value === null ? 'nothing' : JSON.stringify(value)}`)
    : parsed;
}

function date(value: Value, what: string): Date {
  const time = typeof value === 'string' ? asInstant(value) : undefined;
  return time === undefined
    ? fail(`${what} needs a date (ISO 8601), got ${value === null ? 'nothing' : JSON.stringify(value)}`)
    : new Date(time);
}

const UNITS = ['years', 'months', 'days', 'hours', 'minutes'] as const;
type Unit = (typeof UNITS)[number];

function unit(value: Value, what: string): Unit {
  const text = typeof value === 'string' ? value.trim().toLowerCase().replace(/s?$/, 's') : '';
  return (UNITS as readonly string[]).includes(text)
    ? (text as Unit)
    : fail(`${what} needs a unit: ${UNITS.join(', ')}`);
}

function addTo(start: Date, amount: number, by: Unit): Date {
  const result = new Date(start.getTime());
  if (by === 'years') result.setUTCFullYear(result.getUTCFullYear() + amount);
  else if (by === 'months') result.setUTCMonth(result.getUTCMonth() + amount);
  else result.setTime(result.getTime() + amount * { days: 86_400_000, hours: 3_600_000, minutes: 60_000 }[by]);
  return result;
}

/** Whole units from `a` to `b` (negative when b is earlier). */
function difference(a: Date, b: Date, by: Unit): number {
  if (by === 'years' || by === 'months') {
    let months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
    if (addTo(a, months, 'months').getTime() > b.getTime() && months > 0) months--;
    if (addTo(a, months, 'months').getTime() < b.getTime() && months < 0) months++;
    return by === 'years' ? Math.trunc(months / 12) : months;
  }
  return Math.trunc((b.getTime() - a.getTime()) / { days: 86_400_000, hours: 3_600_000, minutes: 60_000 }[by]);
}

/** format_date tokens: YYYY, MM, DD, HH, mm, ss (UTC). */
function formatDate(value: Date, pattern: string): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) =>
    token === 'YYYY'
      ? String(value.getUTCFullYear())
      : token === 'MM'
        ? pad(value.getUTCMonth() + 1)
        : token === 'DD'
          ? pad(value.getUTCDate())
          : token === 'HH'
            ? pad(value.getUTCHours())
            : token === 'mm'
              ? pad(value.getUTCMinutes())
              : pad(value.getUTCSeconds()),
  );
}

function isoDate(value: Date): string {
  return value.toISOString().slice(0, 10);
}

class Evaluator {
  constructor(
    private readonly subject: Readonly<Record<string, unknown>>,
    private readonly context: FormulaContext,
  ) {}

  render(nodes: readonly FormulaNode[]): string {
    let out = '';
    for (const node of nodes) {
      if (node.kind === 'text') out += node.value;
      else if (node.kind === 'output') out += renderText(this.output(node));
      else {
        const branch = node.branches.find((candidate) => truthy(this.expr(candidate.condition)));
        const body = branch ? branch.body : node.otherwise;
        if (body) out += this.render(body);
      }
    }
    return out;
  }

  output(node: Extract<FormulaNode, { kind: 'output' }>): Value {
    return this.applyFilters(this.expr(node.expr), node.filters);
  }

  private applyFilters(input: Value, filters: readonly FilterCall[]): Value {
    let value = input;
    for (const filter of filters) value = this.filter(value, filter);
    return value;
  }

  private filter(value: Value, filter: FilterCall): Value {
    const args = filter.args.map((arg) => this.expr(arg));
    const arg = (index: number) => args[index] ?? null;
    const textOf = (v: Value) => renderText(v);
    switch (filter.name) {
      case 'default':
        return truthy(value) ? value : arg(0);
      case 'upcase':
        return textOf(value).toUpperCase();
      case 'downcase':
        return textOf(value).toLowerCase();
      case 'capitalize': {
        const text = textOf(value);
        return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
      }
      case 'strip':
        return textOf(value).trim();
      case 'split':
        return value === null ? [] : textOf(value).split(textOf(arg(0)));
      case 'first':
        return Array.isArray(value) ? (value[0] ?? null) : textOf(value).charAt(0);
      case 'last':
        return Array.isArray(value) ? (value.at(-1) ?? null) : textOf(value).slice(-1);
      case 'size':
        return Array.isArray(value) ? value.length : textOf(value).length;
      case 'truncate': {
        const limit = Math.max(0, Math.trunc(number(arg(0), 'truncate')));
        const text = textOf(value);
        return text.length <= limit ? text : `${text.slice(0, Math.max(0, limit - 3))}...`;
      }
      case 'plus':
        return number(value, 'plus') + number(arg(0), 'plus');
      case 'minus':
        return number(value, 'minus') - number(arg(0), 'minus');
      case 'times':
        return number(value, 'times') * number(arg(0), 'times');
      case 'divided_by': {
        const divisor = number(arg(0), 'divided_by');
        return divisor === 0 ? fail('division by zero') : number(value, 'divided_by') / divisor;
      }
      case 'round': {
        const digits = args.length > 0 ? Math.min(10, Math.max(0, Math.trunc(number(arg(0), 'round')))) : 0;
        const factor = 10 ** digits;
        return Math.round(number(value, 'round') * factor) / factor;
      }
      case 'floor':
        return Math.floor(number(value, 'floor'));
      case 'ceil':
        return Math.ceil(number(value, 'ceil'));
      case 'abs':
        return Math.abs(number(value, 'abs'));
      case 'date_add':
      case 'date_diff':
      case 'years_since':
      case 'format_date':
        return this.call(filter.name, [value, ...args]);
    }
  }

  private call(name: string, args: Value[]): Value {
    const now = this.context.now;
    switch (name) {
      case 'now':
        return now.toISOString();
      case 'today':
        return isoDate(now);
      case 'date_add': {
        const start = date(args[0] ?? null, 'date_add');
        const result = addTo(start, Math.trunc(number(args[1] ?? null, 'date_add')), unit(args[2] ?? null, 'date_add'));
        if (!Number.isFinite(result.getTime())) fail('date_add gives a date out of range');
        return typeof args[0] === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(args[0].trim())
          ? isoDate(result)
          : result.toISOString();
      }
      case 'date_diff':
        return difference(
          date(args[0] ?? null, 'date_diff'),
          date(args[1] ?? null, 'date_diff'),
          args.length > 2 ? unit(args[2] ?? null, 'date_diff') : 'days',
        );
      case 'years_since':
        return difference(date(args[0] ?? null, 'years_since'), now, 'years');
      case 'format_date':
        return formatDate(date(args[0] ?? null, 'format_date'), renderText(args[1] ?? null));
      default:
        return fail(`unknown function ${name}`);
    }
  }

  expr(node: Expr): Value {
    switch (node.kind) {
      case 'literal':
        return node.value;
      case 'path':
        return toValue(getFieldValue(this.subject, node.path));
      case 'call':
        return this.call(
          node.name,
          node.args.map((arg) => this.expr(arg)),
        );
      case 'lookup': {
        const key = this.expr(node.key);
        const table = this.context.lookupTables.get(node.table);
        if (!table || key === null || Array.isArray(key)) return null;
        const wanted = renderText(key);
        if (Object.prototype.hasOwnProperty.call(table, wanted)) return table[wanted] ?? null;
        const folded = wanted.trim().toLowerCase();
        for (const [candidate, mapped] of Object.entries(table))
          if (candidate.trim().toLowerCase() === folded) return mapped;
        return null;
      }
      case 'not':
        return !truthy(this.expr(node.operand));
      case 'filtered':
        return this.applyFilters(this.expr(node.expr), node.filters);
      case 'binary':
        return this.binary(node);
    }
  }

  private binary(node: Extract<Expr, { kind: 'binary' }>): Value {
    if (node.operator === '&&') return truthy(this.expr(node.left)) && truthy(this.expr(node.right));
    if (node.operator === '||') return truthy(this.expr(node.left)) || truthy(this.expr(node.right));
    const left = this.expr(node.left);
    const right = this.expr(node.right);
    if (node.operator === 'contains') {
      if (Array.isArray(left)) return left.some((item) => same(item, right));
      return left !== null && right !== null && renderText(left).includes(renderText(right));
    }
    if (node.operator === '==') return same(left, right);
    if (node.operator === '!=') return !same(left, right);
    const order = compare(left, right);
    if (order === undefined) return false;
    switch (node.operator) {
      case '>':
        return order > 0;
      case '>=':
        return order >= 0;
      case '<':
        return order < 0;
      default:
        return order <= 0;
    }
  }
}

/** Equality: numbers (and numeric text) as numbers, otherwise exact. */
function same(a: Value, b: Value): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return x === y;
  return a === b;
}

/** Numbers, then dates, then text; undefined when either side is missing. */
function compare(a: Value, b: Value): number | undefined {
  if (a === null || b === null || Array.isArray(a) || Array.isArray(b)) return undefined;
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return Math.sign(x - y);
  const s = asInstant(a);
  const t = asInstant(b);
  if (s !== undefined && t !== undefined) return Math.sign(s - t);
  return renderText(a) < renderText(b) ? -1 : renderText(a) > renderText(b) ? 1 : 0;
}
