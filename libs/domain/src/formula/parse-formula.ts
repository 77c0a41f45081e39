/**
 * The formula parser: a hand-written tokenizer and recursive-descent parser (no regular
 * expressions for structure), producing the tree of formula-ast.ts. Errors name the line and
 * column (1-based) of the offending token. Grammar (docs/formula-language.md):
 *
 *   template   := (text | tag)*
 *   tag        := "{{" ( "if" expr | "elsif" expr | "else" | "/if" | expr filter* ) "}}"
 *   filter     := "|" name [":" expr ("," expr)*]
 *   expr       := and ("||" and)*
 *   and        := compare ("&&" compare)*
 *   compare    := unary [("==" | "!=" | ">" | ">=" | "<" | "<=" | "contains") unary]
 *   unary      := "!" unary | primary
 *   primary    := number | string | true | false | null | path
 *               | function ["(" [expr ("," expr)*] ")"]
 *               | "lookup" string primary | "lookup" "(" string "," expr ")"
 *               | "(" expr filter* ")"
 */
import {
  FILTER_ARITY,
  FILTERS,
  FUNCTION_ARITY,
  FUNCTIONS,
  type BinaryOperator,
  type Expr,
  type FilterCall,
  type FilterName,
  type FormulaAst,
  type FormulaNode,
  type FunctionName,
} from './formula-ast';

export interface FormulaError {
  message: string;
  line: number;
  column: number;
}

export type FormulaParse = { ok: true; ast: FormulaAst } | { ok: false; error: FormulaError };

/** Guards against input that would recurse without end (e.g. ten thousand "("). */
const MAX_PARSE_DEPTH = 64;

type Token =
  | { type: 'ident'; value: string; at: number }
  | { type: 'string'; value: string; at: number }
  | { type: 'number'; value: number; at: number }
  | { type: 'op'; value: string; at: number }
  | { type: 'close'; at: number };

class ParseFailure extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

export function positionOf(source: string, at: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  for (let index = 0; index < at && index < source.length; index++) {
    if (source[index] === '\n') {
      line++;
      column = 1;
    } else column++;
  }
  return { line, column };
}

/**
 * Formulas are parsed once per distinct source: a stage evaluates the same few formulas on every
 * lead. Trees are never changed after parsing, so sharing them is safe. Bounded: cleared when full.
 */
const parsed = new Map<string, FormulaParse>();
const PARSE_CACHE_LIMIT = 1_000;

export function parseFormula(source: string): FormulaParse {
  const cached = parsed.get(source);
  if (cached) return cached;
  const result = parseUncached(source);
  if (parsed.size >= PARSE_CACHE_LIMIT) parsed.clear();
  parsed.set(source, result);
  return result;
}

function parseUncached(source: string): FormulaParse {
  try {
    return { ok: true, ast: new Parser(source).template() };
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    const { line, column } = positionOf(source, error.at);
    return { ok: false, error: { message: `${error.message} at line ${line}, column ${column}`, line, column } };
  }
}

const OPERATORS = ['==', '!=', '>=', '<=', '&&', '||', '>', '<', '!', '(', ')', ',', '|', ':', '/'];
const COMPARISONS: readonly string[] = ['==', '!=', '>', '>=', '<', '<='];

function describe(token: Token): string {
  switch (token.type) {
    case 'close':
      return '"}}"';
    case 'string':
      return `the text ${JSON.stringify(token.value)}`;
    case 'number':
      return `the number ${token.value}`;
    default:
      return `"${token.value}"`;
  }
}

class Parser {
  private tokens: Token[] = [];
  private index = 0;
  private depth = 0;

  constructor(private readonly source: string) {}

  template(): FormulaAst {
    let position = 0;
    const root: FormulaNode[] = [];
    // Open conditionals: the node, the body being filled, where it started.
    const stack: Array<{ node: Extract<FormulaNode, { kind: 'if' }>; body: FormulaNode[]; sawElse: boolean }> = [];
    const current = () => stack.at(-1)?.body ?? root;
    while (position < this.source.length) {
      const open = this.source.indexOf('{{', position);
      if (open < 0) {
        current().push({ kind: 'text', value: this.source.slice(position), at: position });
        break;
      }
      if (open > position) current().push({ kind: 'text', value: this.source.slice(position, open), at: position });
      this.tokens = [];
      this.index = 0;
      position = this.tokenizeTag(open + 2);
      const first = this.peek();
      if (first.type === 'ident' && first.value === 'if') {
        this.next();
        const condition = this.expression();
        this.expectClose();
        if (stack.length >= MAX_PARSE_DEPTH) throw new ParseFailure('conditionals nest too deep', first.at);
        const node: Extract<FormulaNode, { kind: 'if' }> = {
          kind: 'if',
          branches: [{ condition, body: [] }],
          otherwise: null,
          at: open,
        };
        current().push(node);
        stack.push({ node, body: node.branches[0]!.body, sawElse: false });
      } else if (first.type === 'ident' && first.value === 'elsif') {
        this.next();
        const open_ = stack.at(-1);
        if (!open_ || open_.sawElse)
          throw new ParseFailure(open_ ? '{{elsif}} after {{else}}' : '{{elsif}} without an open {{if}}', first.at);
        const condition = this.expression();
        this.expectClose();
        const branch = { condition, body: [] as FormulaNode[] };
        open_.node.branches.push(branch);
        open_.body = branch.body;
      } else if (first.type === 'ident' && first.value === 'else') {
        this.next();
        this.expectClose();
        const open_ = stack.at(-1);
        if (!open_ || open_.sawElse)
          throw new ParseFailure(
            open_ ? 'a second {{else}} in one {{if}}' : '{{else}} without an open {{if}}',
            first.at,
          );
        open_.node.otherwise = [];
        open_.body = open_.node.otherwise;
        open_.sawElse = true;
      } else if (first.type === 'op' && first.value === '/') {
        this.next();
        const word = this.next();
        if (word.type !== 'ident' || word.value !== 'if')
          throw new ParseFailure(`expected "if" after "/" but found ${describe(word)}`, word.at);
        this.expectClose();
        if (!stack.pop()) throw new ParseFailure('{{/if}} without an open {{if}}', first.at);
      } else {
        if (first.type === 'close') throw new ParseFailure('expected an expression but found "}}"', first.at);
        const expr = this.expression();
        const filters = this.filters();
        this.expectClose();
        current().push({ kind: 'output', expr, filters, at: open });
      }
    }
    const unclosed = stack.at(-1);
    if (unclosed) throw new ParseFailure('{{if}} is never closed with {{/if}}', unclosed.node.at);
    return root;
  }

  /** Tokens of one tag from `start` up to its "}}"; returns the offset after it. */
  private tokenizeTag(start: number): number {
    const source = this.source;
    let position = start;
    for (;;) {
      while (position < source.length && /\s/.test(source[position]!)) position++;
      if (position >= source.length) throw new ParseFailure('"{{" is never closed with "}}"', start - 2);
      const char = source[position]!;
      if (source.startsWith('}}', position)) {
        this.tokens.push({ type: 'close', at: position });
        return position + 2;
      }
      if (char === '"' || char === "'") {
        let value = '';
        let end = position + 1;
        for (;;) {
          if (end >= source.length) throw new ParseFailure('text is never closed with its quote', position);
          const c = source[end]!;
          if (c === char) break;
          if (c === '\\' && end + 1 < source.length) {
            const escaped = source[end + 1]!;
            value += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped;
            end += 2;
            continue;
          }
          value += c;
          end++;
        }
        this.tokens.push({ type: 'string', value, at: position });
        position = end + 1;
        continue;
      }
      if (isDigit(char) || (char === '-' && isDigit(source[position + 1] ?? '') && this.expectsOperand())) {
        let end = position + 1;
        while (end < source.length && isDigit(source[end]!)) end++;
        if (source[end] === '.' && isDigit(source[end + 1] ?? '')) {
          end++;
          while (end < source.length && isDigit(source[end]!)) end++;
        }
        this.tokens.push({ type: 'number', value: Number(source.slice(position, end)), at: position });
        position = end;
        continue;
      }
      if (isIdentStart(char)) {
        let end = position + 1;
        while (
          end < source.length &&
          (isIdentPart(source[end]!) || (source[end] === '.' && isIdentPart(source[end + 1] ?? '')))
        )
          end++;
        this.tokens.push({ type: 'ident', value: source.slice(position, end), at: position });
        position = end;
        continue;
      }
      const operator = OPERATORS.find((candidate) => source.startsWith(candidate, position));
      if (!operator) throw new ParseFailure(`unexpected character ${JSON.stringify(char)}`, position);
      this.tokens.push({ type: 'op', value: operator, at: position });
      position += operator.length;
    }
  }

  /** Whether a "-" here starts a negative number (after an operator or at the start) rather than being text. */
  private expectsOperand(): boolean {
    const last = this.tokens.at(-1);
    if (!last) return true;
    if (last.type === 'op') return last.value !== ')';
    return last.type === 'ident' && ['if', 'elsif', 'contains'].includes(last.value);
  }

  private peek(): Token {
    return this.tokens[this.index] ?? this.tokens.at(-1)!;
  }

  private next(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }

  private isOp(value: string): boolean {
    const token = this.peek();
    return token.type === 'op' && token.value === value;
  }

  private expectOp(value: string): void {
    const token = this.next();
    if (token.type !== 'op' || token.value !== value)
      throw new ParseFailure(`expected "${value}" but found ${describe(token)}`, token.at);
  }

  private expectClose(): void {
    const token = this.peek();
    if (token.type !== 'close') throw new ParseFailure(`expected "}}" but found ${describe(token)}`, token.at);
  }

  private nested<T>(at: number, parse: () => T): T {
    if (++this.depth > MAX_PARSE_DEPTH) throw new ParseFailure('the expression nests too deep', at);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private expression(): Expr {
    return this.nested(this.peek().at, () => {
      let left = this.and();
      while (this.isOp('||')) {
        const at = this.next().at;
        left = { kind: 'binary', operator: '||', left, right: this.and(), at };
      }
      return left;
    });
  }

  private and(): Expr {
    let left = this.compare();
    while (this.isOp('&&')) {
      const at = this.next().at;
      left = { kind: 'binary', operator: '&&', left, right: this.compare(), at };
    }
    return left;
  }

  private compare(): Expr {
    const left = this.unary();
    const token = this.peek();
    const isComparison =
      (token.type === 'op' && COMPARISONS.includes(token.value)) ||
      (token.type === 'ident' && token.value === 'contains');
    if (!isComparison) return left;
    this.next();
    return { kind: 'binary', operator: token.value as BinaryOperator, left, right: this.unary(), at: token.at };
  }

  private unary(): Expr {
    if (this.isOp('!')) {
      const at = this.next().at;
      return this.nested(at, () => ({ kind: 'not', operand: this.unary(), at }));
    }
    return this.primary();
  }

  private primary(): Expr {
    const token = this.next();
    switch (token.type) {
      case 'number':
        return { kind: 'literal', value: token.value, at: token.at };
      case 'string':
        return { kind: 'literal', value: token.value, at: token.at };
      case 'op':
        if (token.value === '(') {
          const inner = this.expression();
          const filters = this.filters();
          this.expectOp(')');
          return filters.length > 0 ? { kind: 'filtered', expr: inner, filters, at: token.at } : inner;
        }
        throw new ParseFailure(`expected an expression but found ${describe(token)}`, token.at);
      case 'close':
        throw new ParseFailure('expected an expression but found "}}"', token.at);
      case 'ident':
        return this.identifier(token);
    }
  }

  private identifier(token: Extract<Token, { type: 'ident' }>): Expr {
    const name = token.value;
    if (name === 'true' || name === 'false') return { kind: 'literal', value: name === 'true', at: token.at };
    if (name === 'null' || name === 'nil') return { kind: 'literal', value: null, at: token.at };
    if (name === 'lookup') return this.lookup(token.at);
    if ((FUNCTIONS as readonly string[]).includes(name)) {
      const fn = name as FunctionName;
      const args = this.isOp('(') ? this.arguments() : [];
      const [min, max] = FUNCTION_ARITY[fn];
      if (args.length < min || args.length > max)
        throw new ParseFailure(
          `${fn} takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}, not ${args.length}`,
          token.at,
        );
      return { kind: 'call', name: fn, args, at: token.at };
    }
    if (this.isOp('('))
      throw new ParseFailure(`unknown function "${name}"; functions are ${FUNCTIONS.join(', ')} and lookup`, token.at);
    if (['if', 'elsif', 'else', 'contains'].includes(name))
      throw new ParseFailure(`"${name}" cannot be used as a value`, token.at);
    return { kind: 'path', path: name, at: token.at };
  }

  private arguments(): Expr[] {
    this.expectOp('(');
    const args: Expr[] = [];
    if (this.isOp(')')) {
      this.next();
      return args;
    }
    for (;;) {
      args.push(this.expression());
      if (this.isOp(',')) {
        this.next();
        continue;
      }
      this.expectOp(')');
      return args;
    }
  }

  private lookup(at: number): Expr {
    const parenthesized = this.isOp('(');
    if (parenthesized) this.next();
    const table = this.next();
    if (table.type !== 'string')
      throw new ParseFailure(
        `lookup needs a table name in quotes, e.g. lookup "programs" program, but found ${describe(table)}`,
        table.at,
      );
    if (parenthesized) this.expectOp(',');
    const key = parenthesized ? this.expression() : this.unary();
    if (parenthesized) this.expectOp(')');
    return { kind: 'lookup', table: table.value, key, at };
  }

  private filters(): FilterCall[] {
    const filters: FilterCall[] = [];
    while (this.isOp('|')) {
      this.next();
      const token = this.next();
      if (token.type !== 'ident' || !(FILTERS as readonly string[]).includes(token.value)) {
        throw new ParseFailure(`unknown filter ${describe(token)}; filters are ${FILTERS.join(', ')}`, token.at);
      }
      const name = token.value as FilterName;
      const args: Expr[] = [];
      if (this.isOp(':')) {
        this.next();
        args.push(this.expression());
        while (this.isOp(',')) {
          this.next();
          args.push(this.expression());
        }
      }
      const [min, max] = FILTER_ARITY[name];
      if (args.length < min || args.length > max)
        throw new ParseFailure(
          `the ${name} filter takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}, not ${args.length}`,
          token.at,
        );
      filters.push({ name, args, at: token.at });
    }
    return filters;
  }
}

function isDigit(char: string): boolean {
  return char >= '0' && char <= '9';
}

function isIdentStart(char: string): boolean {
  return (char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z') || char === '_';
}

function isIdentPart(char: string): boolean {
  return isIdentStart(char) || isDigit(char);
}
