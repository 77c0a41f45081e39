/**
 * Routing (docs/routing.md): the rules in the order they are tried, moved up and down (POST
 * /api/routing/rules/reorder); a rule's conditions in the enrichment rules' builder, its targets
 * (CRM connection, owner, queue, weight) and distribution; where leads no rule matches go (GET/PUT
 * /api/routing/settings); and a test panel (POST /api/routing/test, nothing stored).
 */
import { useState, type FormEvent } from 'react';
import type { Schemas } from '@leadstream/client';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { DataTable, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import { Alert, Check, Field, FormActions, Loading, PageHeader, RowAction, Select, TextArea } from '../components/ui';
import { ConditionsEditor } from './conditions.editor';
import { conditionRowsOf, describeConditions, ruleConditions, type ConditionRow } from './rule-builder';
import { destinationText, routeReason, type Connection } from './routing-text';
import { ReprocessPanel } from './reprocess.panel';

type RoutingRule = Schemas['RoutingRule'];
type Distribution = RoutingRule['distribution'];
interface TargetRow {
  connection_id: string;
  owner: string;
  queue: string;
  weight: string;
}

const DISTRIBUTIONS: ReadonlyArray<readonly [Distribution, string]> = [
  ['single', 'single: the one target'],
  ['all', 'all: every target'],
  ['round_robin', 'round robin: one target in turn'],
  ['weighted', 'weighted: one target by weight'],
];
const blankTarget = (): TargetRow => ({ connection_id: '', owner: '', queue: '', weight: '' });
const targetRowOf = (target: {
  connection_id: string;
  owner: string | null;
  queue: string | null;
  weight?: number | null;
}): TargetRow => ({
  connection_id: target.connection_id,
  owner: target.owner ?? '',
  queue: target.queue ?? '',
  weight: target.weight === null || target.weight === undefined ? '' : String(target.weight),
});

export function RoutingPage() {
  const role = currentSession()?.user.role;
  const writable = can(role, 'rules:write');
  const rules = useLoad(async () => (await call(api.GET('/api/routing/rules'))).data, 'routing-rules');
  // Connection names need crm:read; without it targets are shown and typed as connection ids.
  const connections = useLoad(
    async () => (can(role, 'crm:read') ? (await call(api.GET('/api/crm/connections'))).data : undefined),
    'crm',
  );
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<RoutingRule | null>(null);
  const ordered = [...(rules.data ?? [])].sort((a, b) => a.priority - b.priority);

  const move = (index: number, by: -1 | 1) =>
    void action.run(async () => {
      const order = [...ordered];
      const [rule] = order.splice(index, 1);
      if (!rule) return;
      order.splice(index + by, 0, rule);
      await call(
        api.POST('/api/routing/rules/reorder', {
          body: { rules: order.map((item, at) => ({ id: item.id, priority: (at + 1) * 10 })) },
        }),
      );
      rules.reload();
    });
  const toggle = (rule: RoutingRule) =>
    void action.run(async () => {
      await call(
        api.PATCH('/api/routing/rules/{id}', { params: { path: { id: rule.id } }, body: { enabled: !rule.enabled } }),
      );
      rules.reload();
    });
  const remove = (rule: RoutingRule) =>
    confirmed(`Delete the routing rule “${rule.name}”? This is permanent.`, async () => {
      await call(api.DELETE('/api/routing/rules/{id}', { params: { path: { id: rule.id } } }));
      rules.reload();
    });
  const nextPriority = ordered.reduce((max, rule) => Math.max(max, rule.priority), 0) + 10;
  const done = () => {
    setCreating(false);
    setEditing(null);
    rules.reload();
  };

  return (
    <section>
      <PageHeader title="Routing">
        {writable && !creating && !editing && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New routing rule
          </button>
        )}
      </PageHeader>
      <p className="muted">
        After enrichment each lead takes the first enabled rule it matches, top to bottom; its targets are the CRM
        connections (with an owner or queue) it is synced to.
      </p>
      {writable && <ReprocessPanel stages={['route', 'crm-sync']} what="routing rules" />}
      {connections.data?.length === 0 && (
        <Alert tone="info">There is no CRM connection yet: add one under CRM connections before routing to it.</Alert>
      )}
      <Alert>{action.error ?? rules.error}</Alert>
      {(creating || editing) && (
        <RoutingRuleForm
          key={editing?.id ?? 'new'}
          rule={editing ?? undefined}
          priority={nextPriority}
          connections={connections.data}
          onDone={done}
          onCancel={() => (setCreating(false), setEditing(null))}
        />
      )}
      <ListState loaded={rules} what="routing rules">
        {() => (
          <DataTable
            rows={ordered}
            columns={['Order', 'Name', 'When', 'Targets', 'State', writable && 'Actions']}
            empty="No routing rule yet: every lead takes the default route."
            label="Routing rules"
          >
            {(rule, index) => {
              const conditions = describeConditions(rule.conditions);
              return (
                <tr key={rule.id}>
                  <td>
                    {index + 1}
                    <div className="muted">priority {rule.priority}</div>
                  </td>
                  <td>
                    {rule.name}
                    {rule.description && <div className="muted">{rule.description}</div>}
                  </td>
                  <td>{conditions ? <code>{conditions}</code> : <span className="muted">every lead</span>}</td>
                  <td>
                    <div className="muted">{rule.distribution.replace('_', ' ')}</div>
                    {rule.targets.map((target, at) => (
                      <div key={at}>
                        {destinationText(target, connections.data)}
                        {target.weight !== null && ` (weight ${target.weight})`}
                      </div>
                    ))}
                  </td>
                  <td>{rule.enabled ? 'Enabled' : 'Disabled'}</td>
                  {writable && (
                    <td className="actions">
                      <button
                        type="button"
                        onClick={() => move(index, -1)}
                        disabled={index === 0 || action.pending}
                        aria-label={`Move ${rule.name} up`}
                      >
                        Up
                      </button>
                      <button
                        type="button"
                        onClick={() => move(index, 1)}
                        disabled={index === ordered.length - 1 || action.pending}
                        aria-label={`Move ${rule.name} down`}
                      >
                        Down
                      </button>
                      {conditionRowsOf(rule.conditions) ? (
                        <RowAction
                          label="Edit"
                          name={rule.name}
                          onClick={() => (setCreating(false), setEditing(rule))}
                        />
                      ) : (
                        <span className="muted">Nested conditions: edit through the API. </span>
                      )}
                      <RowAction
                        label={rule.enabled ? 'Disable' : 'Enable'}
                        name={rule.name}
                        onClick={() => toggle(rule)}
                      />
                      <RowAction label="Delete" name={rule.name} onClick={() => remove(rule)} danger />
                    </td>
                  )}
                </tr>
              );
            }}
          </DataTable>
        )}
      </ListState>
      <DefaultRoute writable={writable} connections={connections.data} />
      <RoutingTestPanel connections={connections.data} />
    </section>
  );
}

function TargetRows({
  rows,
  onRows,
  connections,
  weights,
  what,
}: {
  rows: TargetRow[];
  onRows: (rows: TargetRow[]) => void;
  connections: readonly Connection[] | undefined;
  weights: boolean;
  what: string;
}) {
  const set = (index: number, change: Partial<TargetRow>) =>
    onRows(rows.map((row, at) => (at === index ? { ...row, ...change } : row)));
  return (
    <>
      {rows.map((row, index) => (
        <div className="builder-row" key={index} role="group" aria-label={`${what} ${index + 1}`}>
          {connections ? (
            <Select
              label={`${what} ${index + 1} connection`}
              value={row.connection_id}
              onChange={(event) => set(index, { connection_id: event.target.value })}
              options={[
                ['', 'Choose a connection…'] as const,
                ...connections.map((connection) => [connection.id, `${connection.name} (${connection.type})`] as const),
              ]}
              required
            />
          ) : (
            <Field
              label={`${what} ${index + 1} connection id`}
              value={row.connection_id}
              onChange={(event) => set(index, { connection_id: event.target.value })}
              required
            />
          )}
          <Field
            label={`${what} ${index + 1} owner (optional)`}
            value={row.owner}
            onChange={(event) => set(index, { owner: event.target.value })}
          />
          <Field
            label={`${what} ${index + 1} queue (optional)`}
            value={row.queue}
            onChange={(event) => set(index, { queue: event.target.value })}
          />
          {weights && (
            <Field
              label={`${what} ${index + 1} weight`}
              type="number"
              min={1}
              max={1000}
              value={row.weight}
              onChange={(event) => set(index, { weight: event.target.value })}
              required
            />
          )}
          <button
            type="button"
            onClick={() => onRows(rows.filter((_, at) => at !== index))}
            aria-label={`Remove ${what.toLowerCase()} ${index + 1}`}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onRows([...rows, blankTarget()])}>
        Add {what.toLowerCase()}
      </button>
    </>
  );
}

function RoutingRuleForm({
  rule,
  priority,
  connections,
  onDone,
  onCancel,
}: {
  rule?: RoutingRule;
  priority: number;
  connections: readonly Connection[] | undefined;
  onDone: () => void;
  onCancel: () => void;
}) {
  const action = useAction();
  const stored = rule ? conditionRowsOf(rule.conditions) : null;
  const [name, setName] = useState(rule?.name ?? '');
  const [description, setDescription] = useState(rule?.description ?? '');
  const [rulePriority, setRulePriority] = useState(String(rule?.priority ?? priority));
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [operator, setOperator] = useState<'AND' | 'OR'>(stored?.operator ?? 'AND');
  const [conditions, setConditions] = useState<ConditionRow[]>(stored?.conditions ?? []);
  const [distribution, setDistribution] = useState<Distribution>(rule?.distribution ?? 'single');
  const [targets, setTargets] = useState<TargetRow[]>(rule ? rule.targets.map(targetRowOf) : [blankTarget()]);
  const title = rule ? `Edit routing rule ${rule.name}` : 'New routing rule';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      const body = {
        name,
        description: description.trim() || null,
        priority: Number(rulePriority),
        enabled,
        conditions: conditions.length
          ? (ruleConditions(operator, conditions) as { operator: 'AND' | 'OR'; rules: Array<Record<string, never>> })
          : null,
        distribution,
        targets: targets.map((row) => ({
          connection_id: row.connection_id,
          owner: row.owner.trim() || null,
          queue: row.queue.trim() || null,
          weight: distribution === 'weighted' ? Number(row.weight) : null,
        })),
      };
      if (rule) await call(api.PATCH('/api/routing/rules/{id}', { params: { path: { id: rule.id } }, body }));
      else await call(api.POST('/api/routing/rules', { body }));
      onDone();
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
          hint="Lower is tried first."
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
        allowNone
      />
      <fieldset>
        <legend>Then route to</legend>
        <Select
          label="Distribution"
          value={distribution}
          onChange={(event) => setDistribution(event.target.value as Distribution)}
          options={DISTRIBUTIONS}
        />
        <TargetRows
          rows={targets}
          onRows={setTargets}
          connections={connections}
          weights={distribution === 'weighted'}
          what="Target"
        />
      </fieldset>
      <Alert>{action.error}</Alert>
      <FormActions
        submitLabel={rule ? 'Save routing rule' : 'Create routing rule'}
        pending={action.pending}
        onCancel={onCancel}
      />
    </form>
  );
}

function DefaultRoute({
  writable,
  connections,
}: {
  writable: boolean;
  connections: readonly Connection[] | undefined;
}) {
  const settings = useLoad(async () => (await call(api.GET('/api/routing/settings'))).data, 'routing-settings');
  return (
    <section className="card" aria-labelledby="default-route">
      <h2 id="default-route">Leads no rule matches</h2>
      <Alert>{settings.error}</Alert>
      {!settings.data ? (
        settings.error ? null : (
          <Loading what="the default route" />
        )
      ) : writable ? (
        <DefaultRouteForm
          key={settings.data.updated_at ?? 'defaults'}
          settings={settings.data}
          connections={connections}
          onSaved={settings.reload}
        />
      ) : (
        <p>
          {settings.data.default_targets.length
            ? `To ${settings.data.default_targets.map((target) => destinationText(target, connections)).join('; ')}.`
            : settings.data.when_unmatched === 'all_connections'
              ? 'To every enabled CRM connection.'
              : 'Not routed.'}
        </p>
      )}
    </section>
  );
}

function DefaultRouteForm({
  settings,
  connections,
  onSaved,
}: {
  settings: Schemas['RoutingSettings'];
  connections: readonly Connection[] | undefined;
  onSaved: () => void;
}) {
  const action = useAction();
  const [targets, setTargets] = useState<TargetRow[]>(settings.default_targets.map(targetRowOf));
  const [whenUnmatched, setWhenUnmatched] = useState(settings.when_unmatched);
  const [saved, setSaved] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      setSaved(false);
      await call(
        api.PUT('/api/routing/settings', {
          body: {
            when_unmatched: whenUnmatched,
            default_targets: targets.map((row) => ({
              connection_id: row.connection_id,
              owner: row.owner.trim() || null,
              queue: row.queue.trim() || null,
            })),
          },
        }),
      );
      setSaved(true);
      onSaved();
    });
  };
  return (
    <form aria-label="Default route" onSubmit={submit}>
      <p className="muted">Every default target receives such a lead; with none, the choice below applies.</p>
      <TargetRows rows={targets} onRows={setTargets} connections={connections} weights={false} what="Default target" />
      <Select
        label="Without default targets"
        value={whenUnmatched}
        onChange={(event) => setWhenUnmatched(event.target.value === 'none' ? 'none' : 'all_connections')}
        options={[
          ['all_connections', 'send to every enabled CRM connection'],
          ['none', 'leave the lead unrouted'],
        ]}
      />
      <Alert>{action.error}</Alert>
      <Alert tone="success">{saved && 'Default route saved.'}</Alert>
      <button type="submit" className="primary" disabled={action.pending}>
        Save default route
      </button>
    </form>
  );
}

const SAMPLE = JSON.stringify(
  { email: 'ann.lee@example.edu', first_name: 'Ann', last_name: 'Lee', source: 'google', program_interest: 'Nursing' },
  null,
  2,
);

function RoutingTestPanel({ connections }: { connections: readonly Connection[] | undefined }) {
  const action = useAction();
  const [text, setText] = useState(SAMPLE);
  const [leadId, setLeadId] = useState('');
  const [result, setResult] = useState<Schemas['RoutingTestResult'] | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      setResult(null);
      let leadData: Record<string, never>;
      try {
        leadData = JSON.parse(text) as Record<string, never>;
      } catch {
        throw new Error('The lead must be a JSON object, such as {"email": "ann@example.edu"}.');
      }
      setResult(
        (
          await call(
            api.POST('/api/routing/test', {
              body: { lead_data: leadData, ...(leadId.trim() ? { lead_id: leadId.trim() } : {}) },
            }),
          )
        ).data,
      );
    });
  };
  return (
    <section className="card" aria-labelledby="routing-test">
      <h2 id="routing-test">Test routing</h2>
      <form onSubmit={submit}>
        <TextArea
          label="Lead (JSON)"
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={7}
          className="mono"
          hint="Nothing is stored: the lead is enriched and routed as the pipeline would."
        />
        <Field
          label="Lead id (optional)"
          value={leadId}
          onChange={(event) => setLeadId(event.target.value)}
          hint="For a weighted rule, the target this lead gets."
        />
        <button type="submit" disabled={action.pending}>
          Route this lead
        </button>
      </form>
      <Alert>{action.error}</Alert>
      {result && (
        <div aria-live="polite" data-testid="routing-test-result">
          {result.enrichment_outcome === 'rejected' && (
            <Alert tone="info">Enrichment would reject this lead before routing.</Alert>
          )}
          <p>
            Route: <strong>{result.rule_name ?? routeReason(result.reason)}</strong> ({result.reason})
          </p>
          <ul className="plain">
            {result.targets.map((target, index) => (
              <li key={index}>{destinationText(target, connections)}</li>
            ))}
            {result.targets.length === 0 && <li className="muted">No target.</li>}
          </ul>
        </div>
      )}
    </section>
  );
}
