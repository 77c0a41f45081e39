/**
 * The condition builder of rules (docs/enrichment-rules.md): AND/OR over leaf conditions on lead
 * fields. Used by the enrichment rules and the routing rules, whose conditions are the same groups.
 */
import { useId } from 'react';
import { Field, Select } from '../components/ui';
import { FIELDS, OPERATORS, newCondition, type ConditionRow } from './rule-builder';

export function ConditionsEditor({
  operator,
  conditions,
  onOperator,
  onConditions,
  legend = 'When',
  allowNone = false,
}: {
  operator: 'AND' | 'OR';
  conditions: ConditionRow[];
  onOperator: (operator: 'AND' | 'OR') => void;
  onConditions: (conditions: ConditionRow[]) => void;
  legend?: string;
  /** No condition at all is allowed (routing: the rule matches every lead). */
  allowNone?: boolean;
}) {
  const fieldsId = useId();
  const setCondition = (index: number, change: Partial<ConditionRow>) =>
    onConditions(conditions.map((row, at) => (at === index ? { ...row, ...change } : row)));
  return (
    <fieldset>
      <legend>{legend}</legend>
      <datalist id={fieldsId}>
        {FIELDS.map((field) => (
          <option key={field} value={field} />
        ))}
        <option value="custom_fields." />
        <option value="enrichment_data." />
        <option value="calculated_fields." />
      </datalist>
      {conditions.length === 0 ? (
        <p className="muted">No condition: every lead matches.</p>
      ) : (
        <Select
          label="Match"
          value={operator}
          onChange={(event) => onOperator(event.target.value === 'OR' ? 'OR' : 'AND')}
          options={[
            ['AND', 'all of these (AND)'],
            ['OR', 'any of these (OR)'],
          ]}
        />
      )}
      {conditions.map((row, index) => (
        <div className="builder-row" key={index} role="group" aria-label={`Condition ${index + 1}`}>
          <Field
            label={`Condition ${index + 1} field`}
            list={fieldsId}
            value={row.field}
            onChange={(event) => setCondition(index, { field: event.target.value })}
            required
          />
          <Select
            label={`Condition ${index + 1} operator`}
            value={row.operator}
            onChange={(event) => setCondition(index, { operator: event.target.value as ConditionRow['operator'] })}
            options={OPERATORS.map((value) => [value, value.replaceAll('_', ' ')] as const)}
          />
          {row.operator !== 'is_empty' && row.operator !== 'is_not_empty' && (
            <Field
              label={`Condition ${index + 1} value`}
              value={row.value}
              onChange={(event) => setCondition(index, { value: event.target.value })}
              hint={row.operator.endsWith('in') ? 'Comma-separated list' : undefined}
            />
          )}
          {(allowNone || conditions.length > 1) && (
            <button
              type="button"
              onClick={() => onConditions(conditions.filter((_, at) => at !== index))}
              aria-label={`Remove condition ${index + 1}`}
            >
              Remove
            </button>
          )}
        </div>
      ))}
      <button type="button" onClick={() => onConditions([...conditions, newCondition()])}>
        Add condition
      </button>
    </fieldset>
  );
}
