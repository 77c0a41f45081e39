/**
 * What a parsed formula reads and how deep it goes: the documented limits (2,000 characters,
 * conditionals nested 5 levels, 3 lookups), the field paths it references (dependency order of
 * calculated fields, "recompute when a source field changes"), the lookup tables it uses, and a
 * printer back to source (the parser's round-trip tests use it).
 */
import type { Expr, FilterCall, FormulaAst, FormulaNode } from './formula-ast';

export const MAX_FORMULA_LENGTH = 2_000;
export const MAX_NESTED_CONDITIONALS = 5;
export const MAX_LOOKUPS = 3;

function visitExpr(expr: Expr, visit: (expr: Expr) => void): void {
  visit(expr);
  switch (expr.kind) {
    case 'call':
      expr.args.forEach((arg) => visitExpr(arg, visit));
      break;
    case 'lookup':
      visitExpr(expr.key, visit);
      break;
    case 'not':
      visitExpr(expr.operand, visit);
      break;
    case 'binary':
      visitExpr(expr.left, visit);
      visitExpr(expr.right, visit);
      break;
    case 'filtered':
      visitExpr(expr.expr, visit);
      expr.filters.forEach((filter) => filter.args.forEach((arg) => visitExpr(arg, visit)));
      break;
    default:
      break;
  }
}

function visitNodes(nodes: readonly FormulaNode[], visit: (expr: Expr) => void): void {
  for (const node of nodes) {
    if (node.kind === 'output') {
      visitExpr(node.expr, visit);
      node.filters.forEach((filter) => filter.args.forEach((arg) => visitExpr(arg, visit)));
    } else if (node.kind === 'if') {
      for (const branch of node.branches) {
        visitExpr(branch.condition, visit);
        visitNodes(branch.body, visit);
      }
      if (node.otherwise) visitNodes(node.otherwise, visit);
    }
  }
}

/** The deepest nesting of {{if}} blocks (1 for a single if). */
export function conditionalDepth(nodes: readonly FormulaNode[]): number {
  let deepest = 0;
  for (const node of nodes) {
    if (node.kind !== 'if') continue;
    const inner = Math.max(
      ...node.branches.map((branch) => conditionalDepth(branch.body)),
      node.otherwise ? conditionalDepth(node.otherwise) : 0,
    );
    deepest = Math.max(deepest, 1 + inner);
  }
  return deepest;
}

export function formulaLimitProblems(source: string, ast: FormulaAst): string[] {
  const problems: string[] = [];
  if (source.length > MAX_FORMULA_LENGTH)
    problems.push(`a formula may have at most ${MAX_FORMULA_LENGTH} characters (this one has ${source.length})`);
  const depth = conditionalDepth(ast);
  if (depth > MAX_NESTED_CONDITIONALS)
    problems.push(`conditionals may nest at most ${MAX_NESTED_CONDITIONALS} levels (this formula nests ${depth})`);
  let lookups = 0;
  visitNodes(ast, (expr) => {
    if (expr.kind === 'lookup') lookups++;
  });
  if (lookups > MAX_LOOKUPS)
    problems.push(`a formula may call lookup at most ${MAX_LOOKUPS} times (this one calls it ${lookups} times)`);
  return problems;
}

export function formulaReferences(ast: FormulaAst): string[] {
  const paths = new Set<string>();
  visitNodes(ast, (expr) => {
    if (expr.kind === 'path') paths.add(expr.path);
  });
  return [...paths];
}

export function formulaLookupTables(ast: FormulaAst): string[] {
  const tables = new Set<string>();
  visitNodes(ast, (expr) => {
    if (expr.kind === 'lookup') tables.add(expr.table);
  });
  return [...tables];
}

function printLiteral(value: string | number | boolean | null): string {
  if (typeof value === 'string')
    return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
  return value === null ? 'null' : String(value);
}

function printFilters(filters: readonly FilterCall[]): string {
  return filters
    .map((filter) => ` | ${filter.name}${filter.args.length > 0 ? `: ${filter.args.map(printExpr).join(', ')}` : ''}`)
    .join('');
}

export function printExpr(expr: Expr): string {
  switch (expr.kind) {
    case 'literal':
      return printLiteral(expr.value);
    case 'path':
      return expr.path;
    case 'call':
      return `${expr.name}(${expr.args.map(printExpr).join(', ')})`;
    case 'lookup':
      return `lookup(${printLiteral(expr.table)}, ${printExpr(expr.key)})`;
    case 'not':
      return `!(${printExpr(expr.operand)})`;
    case 'binary':
      return `(${printExpr(expr.left)} ${expr.operator} ${printExpr(expr.right)})`;
    case 'filtered':
      return `(${printExpr(expr.expr)}${printFilters(expr.filters)})`;
  }
}

/** Source that parses to the same tree (up to positions); text nodes must not contain "{{". */
export function printFormula(ast: FormulaAst): string {
  return ast
    .map((node) => {
      if (node.kind === 'text') return node.value;
      if (node.kind === 'output') return `{{${printExpr(node.expr)}${printFilters(node.filters)}}}`;
      const branches = node.branches
        .map(
          (branch, index) =>
            `{{${index === 0 ? 'if' : 'elsif'} ${printExpr(branch.condition)}}}${printFormula(branch.body)}`,
        )
        .join('');
      return `${branches}${node.otherwise ? `{{else}}${printFormula(node.otherwise)}` : ''}{{/if}}`;
    })
    .join('');
}
