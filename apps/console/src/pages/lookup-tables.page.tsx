/** Lookup tables (docs/enrichment-rules.md): mappings that rules (`lookup` action) and formulas read. */
import { useState, type FormEvent } from 'react';
import type { Schemas } from '@leadstream/client';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { formText } from '../components/form-text';
import { DataTable, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import { Alert, Field, FormActions, PageHeader, RowAction, TextArea, formatDateTime } from '../components/ui';
import { formatMappings, parseMappings } from './config-values';

type LookupTable = Schemas['LookupTable'];

export function LookupTablesPage() {
  const writable = can(currentSession()?.user.role, 'rules:write');
  const tables = useLoad(async () => (await call(api.GET('/api/enrichment/lookup-tables'))).data, 'lookup-tables');
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [editing, setEditing] = useState<LookupTable | 'new' | null>(null);

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const mappings = parseMappings(formText(form, 'mappings'));
    const description = formText(form, 'description').trim() || null;
    void action.run(async () => {
      if (editing === 'new')
        await call(
          api.POST('/api/enrichment/lookup-tables', { body: { name: formText(form, 'name'), description, mappings } }),
        );
      else if (editing)
        await call(
          api.PATCH('/api/enrichment/lookup-tables/{id}', {
            params: { path: { id: editing.id } },
            body: { description, mappings },
          }),
        );
      setEditing(null);
      tables.reload();
    });
  };
  const remove = (table: LookupTable) =>
    confirmed(`Delete the lookup table ${table.name}?`, async () => {
      await call(api.DELETE('/api/enrichment/lookup-tables/{id}', { params: { path: { id: table.id } } }));
      tables.reload();
    });

  return (
    <section>
      <PageHeader title="Lookup tables">
        {writable && editing === null && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            New lookup table
          </button>
        )}
      </PageHeader>
      <p className="muted">
        A rule's lookup action or a formula's <code>{'{{lookup "table" field}}'}</code> reads a value from these tables,
        such as the state of a zip code.
      </p>
      <Alert>{action.error ?? tables.error}</Alert>
      {editing !== null && (
        <form
          className="card"
          aria-label={editing === 'new' ? 'New lookup table' : `Edit ${editing.name}`}
          onSubmit={save}
        >
          <div className="grid">
            {editing === 'new' ? (
              <Field
                label="Name"
                name="name"
                required
                pattern="[a-z][a-z0-9_]{0,63}"
                hint="Lowercase identifier, such as zip_states."
                autoFocus
              />
            ) : (
              <p>
                <strong>{editing.name}</strong>
              </p>
            )}
            <Field
              label="Description (optional)"
              name="description"
              defaultValue={editing === 'new' ? '' : (editing.description ?? '')}
              maxLength={1000}
            />
          </div>
          <TextArea
            label="Mappings"
            name="mappings"
            rows={8}
            className="mono"
            defaultValue={editing === 'new' ? '' : formatMappings(editing.mappings)}
            hint="One per line: key = value (or key,value)."
            required
          />
          <FormActions submitLabel="Save table" pending={action.pending} onCancel={() => setEditing(null)} />
        </form>
      )}
      <ListState loaded={tables} what="lookup tables">
        {(data) => (
          <DataTable
            rows={data}
            columns={['Name', 'Description', 'Entries', 'Updated', writable && 'Actions']}
            empty="No lookup table yet."
          >
            {(table) => (
              <tr key={table.id}>
                <td>
                  <code>{table.name}</code>
                </td>
                <td>{table.description ?? '—'}</td>
                <td>{Object.keys(table.mappings).length}</td>
                <td>{formatDateTime(table.updated_at)}</td>
                {writable && (
                  <td className="actions">
                    <RowAction label="Edit" name={table.name} onClick={() => setEditing(table)} />
                    <RowAction label="Delete" name={table.name} onClick={() => remove(table)} danger />
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
