/**
 * The `calculate` actions of a rule are checked with the formula language's grammar and limits when
 * the rule is saved (docs/formula-language.md "Limits"), so a broken formula is a 400 naming the
 * action, never a surprise on a lead.
 */
import type { ErrorDetail } from '../errors';
import { formulaLimitProblems, parseFormula } from '../formula';
import type { EnrichmentRuleSettings } from '../rules';

export function ruleFormulaProblems(rule: Pick<EnrichmentRuleSettings, 'actions'>, prefix = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  rule.actions.forEach((action, index) => {
    if (action.type !== 'calculate') return;
    const field = `${prefix}actions[${index}].formula`;
    const parsed = parseFormula(action.formula);
    if (!parsed.ok) {
      details.push({
        field,
        message: `${parsed.error.message} (line ${parsed.error.line}, column ${parsed.error.column})`,
      });
      return;
    }
    for (const problem of formulaLimitProblems(action.formula, parsed.ast)) details.push({ field, message: problem });
  });
  return details;
}
