/**
 * Enrichment rules (docs/enrichment-rules.md): the rules in priority order, a builder for new rules
 * (a condition group of leaf conditions and a list of actions), enable/disable, delete, and the
 * test panel (POST /api/enrichment/test: which rules match a lead, nothing is stored).
 */
import { useState, type FormEvent } from 'react';
import type { Schemas } from '@leadstream/client';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { DataTable, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import { Alert, Check, Field, FormActions, PageHeader, RowAction, Select, TextArea } from '../components/ui';
import {
  ACTION_TYPES,
  FIELDS,
  TRANSFORMATIONS,
  WRITABLE,
  builderRowsOf,
  describeAction,
  describeConditions,
  newAction,
  newCondition,
  ruleAction,
  ruleConditions,
  type ActionRow,
  type BuilderRows,
  type ConditionRow,
} from './rule-builder';
import { ConditionsEditor } from './conditions.editor';
import { ReprocessPanel } from './reprocess.panel';

export function RulesPage() {
  const role = currentSession()?.user.role;
  const writable = can(role, 'rules:write');
  const rules = useLoad(async () => (await call(api.GET('/api/enrichment/rules'))).data, 'rules');
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<{ rule: EnrichmentRule; rows: BuilderRows } | null>(null);

  const toggle = (rule: Schemas['EnrichmentRule']) =>
    void action.run(async () => {
      await call(
        api.PATCH('/api/enrichment/rules/{id}', {
          params: { path: { id: rule.id } },
          body: { enabled: !rule.enabled },
        }),
      );
      rules.reload();
    });
  const remove = (rule: Schemas['EnrichmentRule']) =>
    confirmed(`Delete the rule “${rule.name}”? This is permanent.`, async () => {
      await call(api.DELETE('/api/enrichment/rules/{id}', { params: { path: { id: rule.id } } }));
      rules.reload();
    });
  const nextPriority = (rules.data ?? []).reduce((max, rule) => Math.max(max, rule.priority), 0) + 10;

  return (
    <section>
      <PageHeader title="Enrichment rules">
        {writable && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New rule
          </button>
        )}
      </PageHeader>
      <p className="muted">
        Rules run on every accepted lead in ascending priority; a reject or stop action ends the run.
      </p>
      {writable && <ReprocessPanel stages={['enrich']} what="enrichment rules" />}
      <Alert>{action.error ?? rules.error}</Alert>
      {editing && (
        <RuleForm
          key={editing.rule.id}
          priority={editing.rule.priority}
          rule={editing.rule}
          rows={editing.rows}
          onCancel={() => setEditing(null)}
          onCreated={() => {
            setEditing(null);
            rules.reload();
          }}
        />
      )}
      {creating && (
        <RuleForm
          priority={nextPriority}
          onCancel={() => setCreating(false)}
          onCreated={() => {
            setCreating(false);
            rules.reload();
          }}
        />
      )}
      <ListState loaded={rules} what="rules">
        {(data) => (
          <DataTable
            rows={data}
            columns={['Priority', 'Name', 'When', 'Then', 'State', writable && 'Actions']}
            empty="No rule yet."
          >
            {(rule) => (
              <tr key={rule.id}>
                <td>{rule.priority}</td>
                <td>
                  {rule.name}
                  {rule.description && <div className="muted">{rule.description}</div>}
                </td>
                <td>
                  <code>{describeConditions(rule.conditions)}</code>
                </td>
                <td>
                  {(rule.actions as Array<Record<string, unknown>>).map((item, index) => (
                    <div key={index}>
                      <code>{describeAction(item)}</code>
                    </div>
                  ))}
                </td>
                <td>{rule.enabled ? 'Enabled' : 'Disabled'}</td>
                {writable && (
                  <td className="actions">
                    <EditButton rule={rule} onEdit={(rows) => setEditing({ rule, rows })} />
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
      <TestPanel />
    </section>
  );
}

type EnrichmentRule = Schemas['EnrichmentRule'];

function EditButton({ rule, onEdit }: { rule: EnrichmentRule; onEdit: (rows: BuilderRows) => void }) {
  const rows = builderRowsOf({ conditions: rule.conditions, actions: rule.actions });
  if (!rows) return <span className="muted">It holds more than the builder shows: edit it through the API. </span>;
  return <RowAction label="Edit" name={rule.name} onClick={() => onEdit(rows)} />;
}

/** A new rule, or a stored one whose rows the builder can show (`rows`), saved with PATCH. */
function RuleForm({
  priority,
  rule,
  rows,
  onCreated,
  onCancel,
}: {
  priority: number;
  rule?: EnrichmentRule;
  rows?: BuilderRows;
  onCreated: () => void;
  onCancel: () => void;
}) {
  const action = useAction();
  const [name, setName] = useState(rule?.name ?? '');
  const [description, setDescription] = useState(rule?.description ?? '');
  const [rulePriority, setRulePriority] = useState(String(rule?.priority ?? priority));
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [operator, setOperator] = useState<'AND' | 'OR'>(rows?.operator ?? 'AND');
  const [conditions, setConditions] = useState<ConditionRow[]>(rows?.conditions ?? [newCondition()]);
  const [actions, setActions] = useState<ActionRow[]>(rows?.actions ?? [newAction()]);
  const title = rule ? `Edit rule ${rule.name}` : 'New rule';
  const setAction = (index: number, change: Partial<ActionRow>) =>
    setActions(actions.map((row, at) => (at === index ? { ...row, ...change } : row)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      const body = {
        name,
        description: description.trim() || null,
        priority: Number(rulePriority),
        enabled,
        conditions: ruleConditions(operator, conditions),
        actions: actions.map(ruleAction),
      };
      if (rule)
        await call(api.PATCH('/api/enrichment/rules/{id}', { params: { path: { id: rule.id } }, body: body as never }));
      else await call(api.POST('/api/enrichment/rules', { body: body as never }));
      onCreated();
    });
  };

  return (
    <form className="card" aria-label={title} onSubmit={submit}>
      <h2>{title}</h2>
      <div className="grid">
        <Field
          label="Rule name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          maxLength={200}
          autoFocus
        />
        <Field
          label="Priority"
          type="number"
          min={0}
          value={rulePriority}
          onChange={(event) => setRulePriority(event.target.value)}
          required
          hint="Lower runs earlier."
        />
        <Field
          label="Description (optional)"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <Check label="Enabled" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
      <ConditionsEditor
        operator={operator}
        conditions={conditions}
        onOperator={setOperator}
        onConditions={setConditions}
      />
      <fieldset>
        <legend>Then</legend>
        <datalist id="rule-fields">
          {FIELDS.map((field) => (
            <option key={field} value={field} />
          ))}
        </datalist>
        <datalist id="rule-writable-fields">
          {WRITABLE.map((field) => (
            <option key={field} value={field} />
          ))}
          <option value="custom_fields." />
          <option value="enrichment_data." />
        </datalist>
        {actions.map((row, index) => (
          <div className="builder-row" key={index} role="group" aria-label={`Action ${index + 1}`}>
            <Select
              label={`Action ${index + 1} type`}
              value={row.type}
              onChange={(event) => setAction(index, { type: event.target.value as ActionRow['type'] })}
              options={ACTION_TYPES.map((value) => [value, value.replaceAll('_', ' ')] as const)}
            />
            {['set_field', 'transform', 'calculate', 'lookup'].includes(row.type) && (
              <Field
                label={`Action ${index + 1} field`}
                list="rule-writable-fields"
                value={row.field}
                onChange={(event) => setAction(index, { field: event.target.value })}
                required
              />
            )}
            {row.type === 'set_field' && (
              <Field
                label={`Action ${index + 1} value`}
                value={row.value}
                onChange={(event) => setAction(index, { value: event.target.value })}
              />
            )}
            {row.type === 'transform' && (
              <Select
                label={`Action ${index + 1} transformation`}
                value={row.value || 'titlecase'}
                onChange={(event) => setAction(index, { value: event.target.value })}
                options={TRANSFORMATIONS.map((value) => [value, value] as const)}
              />
            )}
            {row.type === 'calculate' && (
              <Field
                label={`Action ${index + 1} formula`}
                value={row.value}
                onChange={(event) => setAction(index, { value: event.target.value })}
                hint="A template such as {{first_name}} {{last_name}}"
                required
              />
            )}
            {(row.type === 'flag' || row.type === 'reject') && (
              <Field
                label={`Action ${index + 1} reason`}
                value={row.reason}
                onChange={(event) => setAction(index, { reason: event.target.value })}
                required
              />
            )}
            {row.type === 'flag' && (
              <Select
                label={`Action ${index + 1} severity`}
                value={row.severity}
                onChange={(event) => setAction(index, { severity: event.target.value })}
                options={['low', 'medium', 'high'].map((value) => [value, value] as const)}
              />
            )}
            {row.type === 'lookup' && (
              <>
                <Field
                  label={`Action ${index + 1} lookup table`}
                  value={row.table_name}
                  onChange={(event) => setAction(index, { table_name: event.target.value })}
                  required
                />
                <Field
                  label={`Action ${index + 1} lookup by field`}
                  list="rule-fields"
                  value={row.lookup_field}
                  onChange={(event) => setAction(index, { lookup_field: event.target.value })}
                  required
                />
              </>
            )}
            {row.type === 'webhook' && (
              <>
                <Field
                  label={`Action ${index + 1} URL`}
                  type="url"
                  value={row.url}
                  onChange={(event) => setAction(index, { url: event.target.value })}
                  required
                />
                <Select
                  label={`Action ${index + 1} method`}
                  value={row.method}
                  onChange={(event) => setAction(index, { method: event.target.value })}
                  options={['POST', 'PUT', 'PATCH', 'GET'].map((value) => [value, value] as const)}
                />
              </>
            )}
            {actions.length > 1 && (
              <button
                type="button"
                onClick={() => setActions(actions.filter((_, at) => at !== index))}
                aria-label={`Remove action ${index + 1}`}
              >
                Remove
              </button>
            )}
          </div>
        ))}
        <button type="button" onClick={() => setActions([...actions, newAction()])}>
          Add action
        </button>
      </fieldset>
      <Alert>{action.error}</Alert>
      <FormActions submitLabel={rule ? 'Save rule' : 'Create rule'} pending={action.pending} onCancel={onCancel} />
    </form>
  );
}

const SAMPLE = JSON.stringify(
  { email: 'ann.lee@example.edu', first_name: 'ann', last_name: 'lee', source: 'google', program_interest: 'Nursing' },
  null,
  2,
);

function TestPanel() {
  const action = useAction();
  const [text, setText] = useState(SAMPLE);
  const [result, setResult] = useState<Schemas['EnrichmentTestResult'] | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      let leadData: Record<string, never>;
      try {
        leadData = JSON.parse(text) as Record<string, never>;
      } catch {
        throw new Error('The lead must be a JSON object, such as {"email": "ann@example.edu"}.');
      }
      setResult(await call(api.POST('/api/enrichment/test', { body: { lead_data: leadData } })));
    });
  };
  return (
    <section className="card" aria-labelledby="test-panel">
      <h2 id="test-panel">Test the rules</h2>
      <form onSubmit={submit}>
        <TextArea
          label="Lead (JSON)"
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={7}
          className="mono"
          hint="Nothing is stored: the rules run on this lead and report what they would do."
        />
        <button type="submit" disabled={action.pending}>
          Run the rules
        </button>
      </form>
      <Alert>{action.error}</Alert>
      {result && (
        <div aria-live="polite">
          <p>
            Outcome: <strong data-testid="test-outcome">{result.final_outcome}</strong>
            {result.rejection_reason && ` — ${result.rejection_reason}`}
          </p>
          <ul className="plain">
            {result.results.map((item) => (
              <li key={item.rule_id}>
                <strong>{item.rule_name}</strong>:{' '}
                {item.matched ? 'matched' : `not matched${item.reason ? ` (${item.reason})` : ''}`}
                {item.actions_taken?.map((taken, index) => (
                  <div key={index}>
                    <code>{JSON.stringify(taken)}</code>
                  </div>
                ))}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
