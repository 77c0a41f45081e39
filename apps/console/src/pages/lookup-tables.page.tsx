/** Lookup tables (spec 2.9, 4.7): mappings that rules (`lookup` action) and formulas read. */
import { useState, type FormEvent } from 'react';
import type { Schemas } from '@leadstream/client';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { formText } from '../components/form-text';
import { useAction, useLoad } from '../components/use-load';
import { Alert, Field, Loading, PageHeader, TextArea, formatDateTime } from '../components/ui';
import { formatMappings, parseMappings } from './config-values';

type LookupTable = Schemas['LookupTable'];

export function LookupTablesPage() {
  const writable = can(currentSession()?.user.role, 'rules:write');
  const tables = useLoad(async () => (await call(api.GET('/api/enrichment/lookup-tables'))).data, 'lookup-tables');
  const action = useAction();
  const [editing, setEditing] = useState<LookupTable | 'new' | null>(null);

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const mappings = parseMappings(formText(form, 'mappings'));
    const description = formText(form, 'description').trim() || null;
    void action.run(async () => {
      if (editing === 'new') await call(api.POST('/api/enrichment/lookup-tables', { body: { name: formText(form, 'name'), description, mappings } }));
      else if (editing) await call(api.PATCH('/api/enrichment/lookup-tables/{id}', { params: { path: { id: editing.id } }, body: { description, mappings } }));
      setEditing(null);
      tables.reload();
    });
  };
  const remove = (table: LookupTable) => {
    if (!window.confirm(`Delete the lookup table ${table.name}?`)) return;
    void action.run(async () => {
      await call(api.DELETE('/api/enrichment/lookup-tables/{id}', { params: { path: { id: table.id } } }));
      tables.reload();
    });
  };

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
        A rule's lookup action or a formula's <code>{'{{lookup "table" field}}'}</code> reads a value from these tables, such as the state of a zip code.
      </p>
      <Alert>{action.error ?? tables.error}</Alert>
      {editing !== null && (
        <form className="card" aria-label={editing === 'new' ? 'New lookup table' : `Edit ${editing.name}`} onSubmit={save}>
          <div className="grid">
            {editing === 'new' ? <Field label="Name" name="name" required pattern="[a-z][a-z0-9_]{0,63}" hint="Lowercase identifier, such as zip_states." autoFocus /> : <p>
                <strong>{editing.name}</strong>
              </p>}
            <Field label="Description (optional)" name="description" defaultValue={editing === 'new' ? '' : (editing.description ?? '')} maxLength={1000} />
          </div>
          <TextArea label="Mappings" name="mappings" rows={8} className="mono" defaultValue={editing === 'new' ? '' : formatMappings(editing.mappings)} hint="One per line: key = value (or key,value)." required />
          <div className="row">
            <button type="submit" className="primary" disabled={action.pending}>
              Save table
            </button>
            <button type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {!tables.data ? (
        tables.error ? null : <Loading what="lookup tables" />
      ) : (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">Entries</th>
                <th scope="col">Updated</th>
                {writable && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {tables.data.map((table) => (
                <tr key={table.id}>
                  <td>
                    <code>{table.name}</code>
                  </td>
                  <td>{table.description ?? '—'}</td>
                  <td>{Object.keys(table.mappings).length}</td>
                  <td>{formatDateTime(table.updated_at)}</td>
                  {writable && (
                    <td className="actions">
                      <button type="button" onClick={() => setEditing(table)} aria-label={`Edit ${table.name}`}>
                        Edit
                      </button>
                      <button type="button" className="danger" onClick={() => remove(table)} aria-label={`Delete ${table.name}`}>
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              ))}
              {tables.data.length === 0 && (
                <tr>
                  <td colSpan={5} className="empty">
                    No lookup table yet.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
