/** Custom field definitions (`createCustomField`, ...): what `custom_fields` of a lead may hold. */
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { DataTable, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import { Alert, Check, Field, FormActions, PageHeader, RowAction, Select, formatDateTime } from '../components/ui';
import { formText } from '../components/form-text';

const TYPES = ['string', 'number', 'boolean', 'date', 'array', 'object'] as const;

export function CustomFieldsPage() {
  const writable = can(currentSession()?.user.role, 'rules:write');
  const fields = useLoad(async () => (await call(api.GET('/api/enrichment/custom-fields'))).data, 'fields');
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [creating, setCreating] = useState(false);
  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void action.run(async () => {
      const type = formText(form, 'type') as (typeof TYPES)[number];
      await call(
        api.POST('/api/enrichment/custom-fields', {
          body: {
            name: formText(form, 'name'),
            label: formText(form, 'label'),
            type,
            required: form.get('required') === 'on',
          },
        }),
      );
      setCreating(false);
      fields.reload();
    });
  };
  const remove = (id: string, name: string) =>
    confirmed(`Delete the custom field ${name}?`, async () => {
      await call(api.DELETE('/api/enrichment/custom-fields/{id}', { params: { path: { id } } }));
      fields.reload();
    });
  return (
    <section>
      <PageHeader title="Custom fields">
        {writable && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New custom field
          </button>
        )}
      </PageHeader>
      <p className="muted">Vendors may send only the custom fields defined here, with values of their type.</p>
      <Alert>{action.error ?? fields.error}</Alert>
      {creating && (
        <form className="card" aria-label="New custom field" onSubmit={create}>
          <div className="grid">
            <Field
              label="Name"
              name="name"
              required
              pattern="[a-z][a-z0-9_]{0,63}"
              hint="Lowercase identifier, such as gpa or start_term."
              autoFocus
            />
            <Field label="Label" name="label" required maxLength={200} />
            <Select label="Type" name="type" options={TYPES.map((type) => [type, type] as const)} />
          </div>
          <Check label="Required on every lead" name="required" />
          <FormActions submitLabel="Create field" pending={action.pending} onCancel={() => setCreating(false)} />
        </form>
      )}
      <ListState loaded={fields} what="custom fields">
        {(data) => (
          <DataTable
            rows={data}
            columns={['Name', 'Label', 'Type', 'Required', 'Created', writable && 'Actions']}
            empty="No custom field yet."
          >
            {(field) => (
              <tr key={field.id}>
                <td>
                  <code>{field.name}</code>
                </td>
                <td>{field.label}</td>
                <td>{field.type}</td>
                <td>{field.required ? 'yes' : 'no'}</td>
                <td>{formatDateTime(field.created_at)}</td>
                {writable && (
                  <td>
                    <RowAction label="Delete" name={field.name} onClick={() => remove(field.id, field.name)} danger />
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
