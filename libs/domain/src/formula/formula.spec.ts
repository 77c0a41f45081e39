import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculate, evaluateFormula, type FormulaContext, type FormulaType } from './evaluate-formula';
import { formulaLimitProblems, formulaLookupTables, formulaReferences, printFormula } from './formula-analysis';
import type { FormulaAst } from './formula-ast';
import { parseFormula } from './parse-formula';

const context: FormulaContext = {
  now: new Date('2026-11-24T15:30:00Z'),
  lookupTables: new Map([['programs', { BSN: 'Nursing', MBA: 'Business' }]]),
};
const lead = {
  first_name: 'ada',
  last_name: 'lovelace',
  email: 'ada@example.edu',
  program: 'BSN',
  custom_fields: { gpa: 3.456, credits: '90', birth_date: '2000-05-20', tags: 'a,b,c', zero: 0 },
  enrichment_data: { state: 'CA' },
  full_name: 'Ada Lovelace',
};

function run(source: string, type: FormulaType = 'text') {
  return calculate(source, lead, type, context);
}

describe('the formula language', () => {
  it.each([
    ['Hello {{first_name}}!', 'Hello ada!'],
    ['{{custom_fields.gpa | round: 2}}', '3.46'],
    ['{{missing | default: "friend"}}', 'friend'],
    ['{{first_name | capitalize}} {{last_name | upcase}}', 'Ada LOVELACE'],
    ['{{email | downcase | truncate: 6}}', 'ada...'],
    ['{{"  x  " | strip}}|', 'x|'],
    [
      '{{custom_fields.tags | split: "," | first}}-{{custom_fields.tags | split: "," | last}}-{{custom_fields.tags | split: "," | size}}',
      'a-c-3',
    ],
    ['{{custom_fields.credits | plus: 30 | divided_by: 4}}', '30'],
    [
      '{{custom_fields.gpa | times: 10 | floor}} {{custom_fields.gpa | ceil}} {{-2.5 | abs}} {{10 | minus: 4}}',
      '34 4 2.5 6',
    ],
    ['{{if custom_fields.gpa >= 3.5}}honors{{elsif custom_fields.gpa >= 3}}good{{else}}ok{{/if}}', 'good'],
    [
      '{{if program == "BSN" && !(enrichment_data.state == "NY")}}nursing in {{enrichment_data.state}}{{/if}}',
      'nursing in CA',
    ],
    ['{{if custom_fields.zero}}zero is true{{/if}}', 'zero is true'],
    ['{{if email contains "@example"}}example{{/if}}', 'example'],
    ['{{lookup "programs" program}}', 'Nursing'],
    ['{{lookup("programs", "MBA")}}', 'Business'],
    ['{{lookup "programs" first_name | default: "none"}}', 'none'],
    ['{{today}} {{now}}', '2026-11-24 2026-11-24T15:30:00.000Z'],
    ['{{years_since(custom_fields.birth_date)}} {{custom_fields.birth_date | years_since}}', '26 26'],
    ['{{date_add(custom_fields.birth_date, 18, "years")}}', '2018-05-20'],
    ['{{date_diff(custom_fields.birth_date, "2000-06-01", "days")}}', '12'],
    ['{{format_date(now, "DD/MM/YYYY HH:mm")}}', '24/11/2026 15:30'],
    ['{{full_name}}', 'Ada Lovelace'],
  ])('%s → %s', (source, expected) => {
    expect(run(source)).toEqual({ ok: true, value: expected });
  });

  it('types the result', () => {
    expect(run('{{custom_fields.credits | plus: 1}}', 'number')).toEqual({ ok: true, value: 91 });
    expect(run('{{custom_fields.gpa >= 3}}', 'boolean')).toEqual({ ok: true, value: true });
    expect(run('{{if custom_fields.gpa > 4}}yes{{else}}no{{/if}}', 'boolean')).toEqual({ ok: true, value: false });
    expect(run('{{date_add(custom_fields.birth_date, 1, "months")}}', 'date')).toEqual({
      ok: true,
      value: '2000-06-20',
    });
    expect(run('{{missing}}', 'number')).toEqual({ ok: true, value: null });
    expect(run('{{first_name}}', 'number')).toEqual({ ok: false, error: '"ada" is not a number' });
  });

  it('turns runtime problems into errors, never exceptions', () => {
    expect(run('{{10 | divided_by: 0}}')).toEqual({ ok: false, error: 'division by zero' });
    expect(run('{{first_name | plus: 1}}')).toEqual({ ok: false, error: 'plus needs a number, got "ada"' });
    expect(run('{{years_since(first_name)}}')).toEqual({
      ok: false,
      error: 'years_since needs a date (ISO 8601), got "ada"',
    });
    expect(run('{{missing | plus: 1}}')).toEqual({ ok: false, error: 'plus needs a number, got nothing' });
  });
});

describe('parse errors carry line and column', () => {
  it.each([
    ['Hi {{first_name', 1, 4, 'never closed'],
    ['Hi {{first_name | shout}}', 1, 19, 'unknown filter'],
    ['line one\n  {{if x}}\n  {{/if}}{{/if}}', 3, 12, 'without an open'],
    ['{{if x}}\nopen', 1, 1, 'never closed with {{/if}}'],
    ['{{ }}', 1, 4, 'expected an expression'],
    ['{{explode(1)}}', 1, 3, 'unknown function'],
    ['{{x | truncate}}', 1, 7, 'takes 1 argument'],
    ['{{lookup programs x}}', 1, 10, 'table name in quotes'],
    ['{{"open}}', 1, 3, 'never closed with its quote'],
    ['{{a ==}}', 1, 7, 'expected an expression'],
  ])('%j', (source, line, column, message) => {
    const parsed = parseFormula(source);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error).toMatchObject({ line, column });
    expect(parsed.error.message).toContain(message);
    expect(parsed.error.message).toContain(`line ${line}, column ${column}`);
  });
});

describe('the documented formula limits', () => {
  const nested = (levels: number) => '{{if a}}'.repeat(levels) + 'x' + '{{/if}}'.repeat(levels);
  const problems = (source: string) => {
    const parsed = parseFormula(source);
    if (!parsed.ok) throw new Error(parsed.error.message);
    return formulaLimitProblems(source, parsed.ast);
  };

  it('allows 5 nested conditionals, not 6', () => {
    expect(problems(nested(5))).toEqual([]);
    expect(problems(nested(6))).toEqual(['conditionals may nest at most 5 levels (this formula nests 6)']);
  });

  it('allows 3 lookups, not 4', () => {
    expect(problems('{{lookup "p" a}}{{lookup "p" b}}{{lookup "p" c}}')).toEqual([]);
    expect(problems('{{lookup "p" a}}{{lookup "p" b}}{{lookup "p" c}}{{lookup "p" d}}')).toEqual([
      'a formula may call lookup at most 3 times (this one calls it 4 times)',
    ]);
  });

  it('allows 2,000 characters, not 2,001', () => {
    expect(problems('x'.repeat(2000))).toEqual([]);
    expect(problems('x'.repeat(2001))).toEqual(['a formula may have at most 2000 characters (this one has 2001)']);
  });

  it('lists references and lookup tables', () => {
    const parsed = parseFormula(
      '{{if custom_fields.gpa > 3}}{{lookup "programs" program | upcase}}{{/if}}{{full_name | default: first_name}}',
    );
    if (!parsed.ok) throw new Error('refused');
    expect(formulaReferences(parsed.ast).sort()).toEqual(['custom_fields.gpa', 'first_name', 'full_name', 'program']);
    expect(formulaLookupTables(parsed.ast)).toEqual(['programs']);
  });
});

describe('properties', () => {
  it('parsing any string never throws, and errors point inside the input', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `{{${s}}}`),
          fc
            .array(
              fc.constantFrom(
                '{{',
                '}}',
                'if ',
                '/if',
                'else',
                '"',
                '(',
                ')',
                '|',
                'x',
                ' ',
                '1',
                '\n',
                '==',
                '&&',
                'lookup ',
              ),
            )
            .map((parts) => parts.join('')),
        ),
        (source) => {
          const parsed = parseFormula(source);
          if (!parsed.ok) {
            const lines = source.split('\n');
            expect(parsed.error.line).toBeGreaterThanOrEqual(1);
            expect(parsed.error.line).toBeLessThanOrEqual(lines.length);
            expect(parsed.error.column).toBeLessThanOrEqual((lines[parsed.error.line - 1]?.length ?? 0) + 1);
          }
        },
      ),
    );
  });

  it('refuses a formula exactly when it nests more than 5 conditionals or calls lookup more than 3 times', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 6 }),
        fc.string({ maxLength: 10 }).filter((text) => !text.includes('{') && !text.includes('}')),
        (depth, lookups, filler) => {
          const body = `${filler}${'{{lookup "t" x}}'.repeat(lookups)}`;
          const source = '{{if a}}'.repeat(depth) + body + '{{/if}}'.repeat(depth);
          const parsed = parseFormula(source);
          if (!parsed.ok) throw new Error(parsed.error.message);
          const problems = formulaLimitProblems(source, parsed.ast);
          expect(problems.length).toBe((depth > 5 ? 1 : 0) + (lookups > 3 ? 1 : 0));
        },
      ),
    );
  });

  it('text without tags comes back unchanged', () => {
    fc.assert(
      fc.property(
        fc.string().filter((text) => !text.includes('{{')),
        (text) => {
          expect(run(text)).toEqual({ ok: true, value: text });
        },
      ),
    );
  });

  const path = fc.constantFrom('first_name', 'custom_fields.gpa', 'program', 'x');
  const literal = fc.oneof(
    fc.integer({ min: -1000, max: 1000 }),
    fc.string({ maxLength: 8 }),
    fc.boolean(),
    fc.constant(null),
  );
  const expr = fc.letrec<{ expr: string }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small' },
      path,
      literal.map((value) => (typeof value === 'string' ? JSON.stringify(value) : String(value))),
      fc
        .tuple(tie('expr'), fc.constantFrom('==', '!=', '>', '<=', '&&', '||', 'contains'), tie('expr'))
        .map(([a, op, b]) => `(${a} ${op} ${b})`),
      tie('expr').map((inner) => `!(${inner})`),
      fc
        .tuple(tie('expr'), fc.constantFrom(' | upcase', ' | default: 1', ' | plus: 2', ' | truncate: 3', ' | round'))
        .map(([inner, filter]) => `(${inner}${filter})`),
      path.map((key) => `lookup("programs", ${key})`),
    ),
  })).expr;
  const template = fc
    .array(
      fc.oneof(
        fc.string({ maxLength: 6 }).filter((text) => !text.includes('{') && !text.includes('}')),
        expr.map((e) => `{{${e}}}`),
        fc.tuple(expr, expr).map(([c, e]) => `{{if ${c}}}{{${e}}}{{else}}x{{/if}}`),
      ),
      { maxLength: 5 },
    )
    .map((parts) => parts.join(''));

  it('a printed tree parses to the same tree (round trip), and evaluation never throws', () => {
    const strip = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key === 'at' ? undefined : inner)));
    fc.assert(
      fc.property(
        template,
        fc.dictionary(fc.constantFrom('first_name', 'program', 'custom_fields'), fc.jsonValue({ maxDepth: 2 })),
        (source, subject) => {
          const parsed = parseFormula(source);
          if (!parsed.ok) throw new Error(`${source}: ${parsed.error.message}`);
          const printed = printFormula(parsed.ast);
          const again = parseFormula(printed);
          if (!again.ok) throw new Error(`${printed}: ${again.error.message}`);
          expect(strip(mergeText(again.ast))).toEqual(strip(mergeText(parsed.ast)));
          for (const type of ['text', 'number', 'date', 'boolean'] as const)
            evaluateFormula(parsed.ast, subject, type, context);
        },
      ),
    );
  });
});

/** Adjacent text nodes are one text once printed; compare trees with them merged. */
function mergeText(nodes: FormulaAst): unknown[] {
  const merged: unknown[] = [];
  for (const node of nodes) {
    const last = merged.at(-1) as { kind?: string; value?: string } | undefined;
    if (node.kind === 'text' && last?.kind === 'text') last.value += node.value;
    else if (node.kind === 'if')
      merged.push({
        ...node,
        branches: node.branches.map((branch) => ({ ...branch, body: mergeText(branch.body) })),
        otherwise: node.otherwise ? mergeText(node.otherwise) : null,
      });
    else merged.push({ ...node });
  }
  return merged;
}
