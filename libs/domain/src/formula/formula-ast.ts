/**
 * The syntax tree of a formula (docs/formula-language.md). A formula is a template: text with
 * `{{ ... }}` tags. Every node keeps the offset it starts at, for error positions.
 */

export type FormulaAst = FormulaNode[];

export type FormulaNode =
  | { kind: 'text'; value: string; at: number }
  | { kind: 'output'; expr: Expr; filters: FilterCall[]; at: number }
  | {
      kind: 'if';
      branches: Array<{ condition: Expr; body: FormulaNode[] }>;
      otherwise: FormulaNode[] | null;
      at: number;
    };

export type BinaryOperator = '==' | '!=' | '>' | '>=' | '<' | '<=' | '&&' | '||' | 'contains';

export type Expr =
  | { kind: 'literal'; value: string | number | boolean | null; at: number }
  | { kind: 'path'; path: string; at: number }
  | { kind: 'call'; name: FunctionName; args: Expr[]; at: number }
  | { kind: 'lookup'; table: string; key: Expr; at: number }
  | { kind: 'not'; operand: Expr; at: number }
  | { kind: 'binary'; operator: BinaryOperator; left: Expr; right: Expr; at: number }
  | { kind: 'filtered'; expr: Expr; filters: FilterCall[]; at: number };

export interface FilterCall {
  name: FilterName;
  args: Expr[];
  at: number;
}

export const STRING_FILTERS = [
  'upcase',
  'downcase',
  'capitalize',
  'strip',
  'split',
  'first',
  'last',
  'size',
  'truncate',
] as const;
export const NUMBER_FILTERS = ['plus', 'minus', 'times', 'divided_by', 'round', 'floor', 'ceil', 'abs'] as const;
export const FUNCTIONS = ['now', 'today', 'date_add', 'date_diff', 'years_since', 'format_date'] as const;
/** Every filter name: `default`, the string and number filters, and the date functions used as filters (`{{birth_date | years_since}}`). */
export const FILTERS = [
  'default',
  ...STRING_FILTERS,
  ...NUMBER_FILTERS,
  'date_add',
  'date_diff',
  'years_since',
  'format_date',
] as const;

export type FunctionName = (typeof FUNCTIONS)[number];
export type FilterName = (typeof FILTERS)[number];

/** How many arguments each function takes (min, max). */
export const FUNCTION_ARITY: Readonly<Record<FunctionName, [number, number]>> = {
  now: [0, 0],
  today: [0, 0],
  date_add: [3, 3],
  date_diff: [2, 3],
  years_since: [1, 1],
  format_date: [2, 2],
};

/** How many arguments each filter takes after its input (min, max). */
export const FILTER_ARITY: Readonly<Record<FilterName, [number, number]>> = {
  default: [1, 1],
  upcase: [0, 0],
  downcase: [0, 0],
  capitalize: [0, 0],
  strip: [0, 0],
  split: [1, 1],
  first: [0, 0],
  last: [0, 0],
  size: [0, 0],
  truncate: [1, 1],
  plus: [1, 1],
  minus: [1, 1],
  times: [1, 1],
  divided_by: [1, 1],
  round: [0, 1],
  floor: [0, 0],
  ceil: [0, 0],
  abs: [0, 0],
  date_add: [2, 2],
  date_diff: [1, 2],
  years_since: [0, 0],
  format_date: [1, 1],
};
