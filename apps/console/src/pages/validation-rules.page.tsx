/** Custom validation rules (docs/validation-rules.md) and the check panel. */
import { useState, type FormEvent } from 'react';
import type { Schemas } from '@leadstream/client';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { formText } from '../components/form-text';
import { DataTable, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import { Alert, Field, FormActions, PageHeader, RowAction, Select, TextArea } from '../components/ui';
import { typedValue } from './config-values';

const TYPES = ['required', 'format', 'length', 'range', 'whitelist', 'blacklist', 'comparison'] as const;
const ACTIONS = ['reject', 'flag', 'warn', 'transform'] as const;
const TRANSFORMS = ['uppercase', 'lowercase', 'titlecase', 'trim', 'digits_only'] as const;
/** The conditions each rule type takes (docs/validation-rules.md). */
const CONDITIONS: Record<(typeof TYPES)[number], string[]> = {
  required: ['present'],
  format: ['matches', 'not_matches', 'is_email', 'is_phone', 'is_url', 'is_date'],
  length: ['min', 'max', 'between'],
  range: ['min', 'max', 'between'],
  whitelist: ['in'],
  blacklist: ['not_in', 'contains_any'],
  comparison: [
    'equals',
    'not_equals',
    'greater_than',
    'less_than',
    'greater_than_or_equal',
    'less_than_or_equal',
    'before',
    'after',
  ],
};

export function ValidationRulesPage() {
  const writable = can(currentSession()?.user.role, 'rules:write');
  const rules = useLoad(async () => (await call(api.GET('/api/validation'))).data, 'validation');
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [creating, setCreating] = useState(false);
  const [type, setType] = useState<(typeof TYPES)[number]>('format');
  const [ruleAction, setRuleAction] = useState<(typeof ACTIONS)[number]>('reject');

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = typedValue(formText(form, 'value'));
    void action.run(async () => {
      const body = {
        name: formText(form, 'name'),
        field: formText(form, 'field'),
        rule_type: type,
        condition: formText(form, 'condition'),
        ...(value === undefined ? {} : { value }),
        action: ruleAction,
        ...(ruleAction === 'transform'
          ? { transform: formText(form, 'transform') as (typeof TRANSFORMS)[number] }
          : {}),
        message: formText(form, 'message'),
        priority: Number(formText(form, 'priority')) || 100,
      };
      await call(api.POST('/api/validation', { body: body as never }));
      setCreating(false);
      rules.reload();
    });
  };
  const toggle = (rule: Schemas['ValidationRule']) =>
    void action.run(async () => {
      await call(
        api.PATCH('/api/validation/{id}', { params: { path: { id: rule.id } }, body: { enabled: !rule.enabled } }),
      );
      rules.reload();
    });
  const remove = (rule: Schemas['ValidationRule']) =>
    confirmed(`Delete the validation rule “${rule.name}”?`, async () => {
      await call(api.DELETE('/api/validation/{id}', { params: { path: { id: rule.id } } }));
      rules.reload();
    });

  return (
    <section>
      <PageHeader title="Validation rules">
        {writable && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New validation rule
          </button>
        )}
      </PageHeader>
      <p className="muted">Your own checks on every submission, after the built-in ones, in ascending priority.</p>
      <Alert>{action.error ?? rules.error}</Alert>
      {creating && (
        <form className="card" aria-label="New validation rule" onSubmit={create}>
          <div className="grid">
            <Field label="Rule name" name="name" required maxLength={200} autoFocus />
            <Field label="Field" name="field" required placeholder="email or custom_fields.zip" />
            <Select
              label="Rule type"
              value={type}
              onChange={(event) => setType(event.target.value as (typeof TYPES)[number])}
              options={TYPES.map((value) => [value, value] as const)}
            />
            <Select
              label="Condition"
              name="condition"
              key={type}
              options={CONDITIONS[type].map((value) => [value, value.replaceAll('_', ' ')] as const)}
            />
            <Field
              label="Value"
              name="value"
              hint='A pattern, a number, a list as ["a","b"], [min, max], or {"field": "other_field"}.'
            />
            <Select
              label="Action"
              value={ruleAction}
              onChange={(event) => setRuleAction(event.target.value as (typeof ACTIONS)[number])}
              options={ACTIONS.map((value) => [value, value] as const)}
            />
            {ruleAction === 'transform' && (
              <Select label="Transform" name="transform" options={TRANSFORMS.map((value) => [value, value] as const)} />
            )}
            <Field label="Message" name="message" required maxLength={500} />
            <Field label="Priority" name="priority" type="number" min={0} defaultValue={100} />
          </div>
          <FormActions submitLabel="Create rule" pending={action.pending} onCancel={() => setCreating(false)} />
        </form>
      )}
      <ListState loaded={rules} what="validation rules">
        {(data) => (
          <DataTable
            rows={data}
            columns={['Priority', 'Name', 'Check', 'Action', 'Message', 'State', writable && 'Actions']}
            empty="No validation rule yet."
          >
            {(rule) => (
              <tr key={rule.id}>
                <td>{rule.priority}</td>
                <td>{rule.name}</td>
                <td>
                  <code>
                    {rule.field} {rule.rule_type} {rule.condition ?? ''}{' '}
                    {rule.value === undefined ? '' : JSON.stringify(rule.value)}
                  </code>
                </td>
                <td>{rule.action}</td>
                <td>{rule.message ?? '—'}</td>
                <td>{rule.enabled ? 'Enabled' : 'Disabled'}</td>
                {writable && (
                  <td className="actions">
                    <RowAction
                      label={rule.enabled ? 'Disable' : 'Enable'}
                      name={rule.name}
                      onClick={() => toggle(rule)}
                    />
                    <RowAction label="Delete" name={rule.name} onClick={() => remove(rule)} danger />
                  </td>
                )}
              </tr>
            )}
          </DataTable>
        )}
      </ListState>
      <CheckPanel />
    </section>
  );
}

function CheckPanel() {
  const action = useAction();
  const [text, setText] = useState(
    JSON.stringify(
      { email: 'ann.lee@example.edu', first_name: 'Ann', last_name: 'Lee', phone: '+1 212 555 0100' },
      null,
      2,
    ),
  );
  const [result, setResult] = useState<Schemas['ValidationCheckResult'] | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      let lead: Record<string, never>;
      try {
        lead = JSON.parse(text) as Record<string, never>;
      } catch {
        throw new Error('The lead must be a JSON object, such as {"email": "ann@example.edu"}.');
      }
      setResult(await call(api.POST('/api/validation/check', { body: lead })));
    });
  };
  return (
    <section className="card" aria-labelledby="check-panel">
      <h2 id="check-panel">Check a lead</h2>
      <form onSubmit={submit}>
        <TextArea
          label="Lead fields (JSON)"
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={6}
          className="mono"
          hint="Runs the built-in checks and your rules; nothing is stored."
        />
        <button type="submit" disabled={action.pending}>
          Check
        </button>
      </form>
      <Alert>{action.error}</Alert>
      {result && (
        <div aria-live="polite">
          <p>
            <strong>{result.valid ? 'Valid' : 'Invalid'}</strong>
          </p>
          <ul className="plain">
            {result.errors.map((item, index) => (
              <li key={`e${index}`}>
                Error — {item.field}: {item.message}
              </li>
            ))}
            {result.warnings.map((item, index) => (
              <li key={`w${index}`}>
                Warning — {item.field}: {item.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
