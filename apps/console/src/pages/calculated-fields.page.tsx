/**
 * Calculated fields (docs/formula-language.md): formulas computed on every lead,
 * and recalculation of existing leads as a background job whose progress is shown.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Schemas } from '@leadstream/client';
import { api, call, errorText } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { formText } from '../components/form-text';
import { DataTable, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import { Alert, Check, Field, FormActions, PageHeader, RowAction, Select, TextArea } from '../components/ui';

const TYPES = ['text', 'number', 'boolean', 'date'] as const;
type Job = Schemas['CalculationJob'];

export function CalculatedFieldsPage() {
  const writable = can(currentSession()?.user.role, 'rules:write');
  const fields = useLoad(async () => (await call(api.GET('/api/calculated-fields'))).data, 'calculated-fields');
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [creating, setCreating] = useState(false);
  const [job, setJob] = useState<Job | null>(null);
  const [jobError, setJobError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const follow = (id: string) => {
    timer.current = setTimeout(() => {
      call(api.GET('/api/calculated-fields/jobs/{id}', { params: { path: { id } } })).then(
        (answer) => {
          setJob(answer.data);
          if (answer.data.status === 'queued' || answer.data.status === 'running') follow(id);
        },
        (error: unknown) => setJobError(errorText(error)),
      );
    }, 700);
  };
  const recalculate = (id?: string) =>
    void action.run(async () => {
      setJobError(null);
      const started = id
        ? await call(api.POST('/api/calculated-fields/{id}/recalculate', { params: { path: { id } } }))
        : await call(api.POST('/api/calculated-fields/recalculate-all'));
      setJob(started.data);
      follow(started.data.id);
    });
  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void action.run(async () => {
      await call(
        api.POST('/api/calculated-fields', {
          body: {
            name: formText(form, 'name'),
            label: formText(form, 'label'),
            formula: formText(form, 'formula'),
            type: formText(form, 'type') as (typeof TYPES)[number],
            recalculate_on_change: form.get('recalculate_on_change') === 'on',
          },
        }),
      );
      setCreating(false);
      fields.reload();
    });
  };
  const remove = (field: Schemas['CalculatedField']) =>
    confirmed(`Delete the calculated field ${field.name}?`, async () => {
      await call(api.DELETE('/api/calculated-fields/{id}', { params: { path: { id: field.id } } }));
      fields.reload();
    });

  const busy = job?.status === 'queued' || job?.status === 'running';
  return (
    <section>
      <PageHeader title="Calculated fields">
        {writable && (
          <>
            <button type="button" onClick={() => recalculate()} disabled={busy || action.pending}>
              Recalculate all
            </button>
            {!creating && (
              <button type="button" className="primary" onClick={() => setCreating(true)}>
                New calculated field
              </button>
            )}
          </>
        )}
      </PageHeader>
      <p className="muted">
        Computed on every new lead from a formula such as{' '}
        <code>{'{{first_name | capitalize}} {{last_name | upcase}}'}</code> or{' '}
        <code>{'{{years_since custom_fields.birth_date}}'}</code>.
      </p>
      <Alert>{action.error ?? fields.error ?? jobError}</Alert>
      {job && (
        <div className="alert alert-info" role="status">
          Recalculation {job.status}
          {job.total !== null && `: ${job.processed} of ${job.total} leads`}
          {job.status === 'completed' && `, ${job.updated} changed`}
          {busy && (
            <progress
              aria-label="Recalculation progress"
              max={job.total ?? undefined}
              value={job.total ? job.processed : undefined}
            />
          )}
          {job.error && ` — ${job.error}`}
        </div>
      )}
      {creating && (
        <form className="card" aria-label="New calculated field" onSubmit={create}>
          <div className="grid">
            <Field
              label="Name"
              name="name"
              required
              pattern="[a-z][a-z0-9_]{0,63}"
              hint="Lowercase identifier."
              autoFocus
            />
            <Field label="Label" name="label" required maxLength={200} />
            <Select label="Type" name="type" options={TYPES.map((type) => [type, type] as const)} />
          </div>
          <TextArea label="Formula" name="formula" rows={3} className="mono" required maxLength={2000} />
          <Check label="Recalculate existing leads when the formula changes" name="recalculate_on_change" />
          <FormActions submitLabel="Create field" pending={action.pending} onCancel={() => setCreating(false)} />
        </form>
      )}
      <ListState loaded={fields} what="calculated fields">
        {(data) => (
          <DataTable
            rows={data}
            columns={['Name', 'Label', 'Type', 'Formula', writable && 'Actions']}
            empty="No calculated field yet."
          >
            {(field) => (
              <tr key={field.id}>
                <td>
                  <code>{field.name}</code>
                </td>
                <td>{field.label}</td>
                <td>{field.type}</td>
                <td>
                  <code>{field.formula}</code>
                </td>
                {writable && (
                  <td className="actions">
                    <RowAction
                      label="Recalculate"
                      name={field.name}
                      onClick={() => recalculate(field.id)}
                      disabled={busy}
                    />
                    <RowAction label="Delete" name={field.name} onClick={() => remove(field)} danger />
                  </td>
                )}
              </tr>
            )}
          </DataTable>
        )}
      </ListState>
    </section>
  );
}
