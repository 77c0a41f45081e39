/**
 * Suppression lists (docs/suppression-lists.md): people, phones and domains whose leads are refused
 * or flagged for review. Owners and admins make lists, add values (typed, or a CSV file imported as
 * a job) and check one value; managers and viewers read them. Values are stored only as hashes, so
 * a list shows its size, never its entries.
 */
import { useState, type FormEvent } from 'react';
import { api, call, errorText } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { formText } from '../components/form-text';
import { DataTable, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import {
  Alert,
  Check,
  Field,
  FormActions,
  PageHeader,
  RowAction,
  Select,
  TextArea,
  formatDateTime,
} from '../components/ui';

interface SuppressionList {
  id: string;
  name: string;
  kind: 'email' | 'phone' | 'domain';
  action: 'reject' | 'flag';
  expires_after_days: number | null;
  sandbox_only: boolean;
  enabled: boolean;
  entry_count: number;
  created_at: string;
}

interface ImportJob {
  status: 'running' | 'completed' | 'failed';
  rows: number;
  added: number;
  invalid: number;
  error: string | null;
  status_url: string;
}

const KINDS = [
  ['email', 'Email addresses'],
  ['phone', 'Phone numbers'],
  ['domain', 'Email domains'],
] as const;
const ACTIONS = [
  ['reject', 'Reject the lead'],
  ['flag', 'Flag for manual review'],
] as const;

const KIND_TEXT: Record<SuppressionList['kind'], string> = { email: 'Email', phone: 'Phone', domain: 'Domain' };

/** The import job's line: progress, or its outcome. */
function importText(job: ImportJob): string {
  if (job.status === 'running') return `Importing… ${job.rows} rows read, ${job.added} added.`;
  if (job.status === 'failed') return `Import failed after ${job.rows} rows: ${job.error ?? 'unknown error'}.`;
  return `Import finished: ${job.rows} rows, ${job.added} new entries, ${job.invalid} invalid rows skipped.`;
}

async function sendCsv(listId: string, file: File): Promise<ImportJob> {
  const headers = { 'content-type': 'text/csv', authorization: `Bearer ${currentSession()?.token ?? ''}` };
  const response = await fetch(`/api/suppression-lists/${encodeURIComponent(listId)}/entries/import`, {
    method: 'POST',
    headers,
    body: file,
  });
  const body = (await response.json()) as { data?: ImportJob; error?: { message?: string } };
  if (!response.ok || !body.data)
    throw new Error(body.error?.message ?? `The import was refused (${response.status}).`);
  return body.data;
}

async function pollImport(job: ImportJob, show: (job: ImportJob) => void): Promise<void> {
  let current = job;
  while (current.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const response = await fetch(current.status_url, {
      headers: { authorization: `Bearer ${currentSession()?.token ?? ''}` },
    });
    current = ((await response.json()) as { data: ImportJob }).data;
    show(current);
  }
}

export function SuppressionListsPage() {
  const writable = can(currentSession()?.user.role, 'suppression:write');
  const lists = useLoad(
    async () =>
      (await call(api.GET('/api/suppression-lists', { params: { query: { limit: 100 } } }))).data as SuppressionList[],
    'suppression-lists',
  );
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<SuppressionList | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const days = formText(form, 'expires_after_days').trim();
    void action.run(async () => {
      await call(
        api.POST('/api/suppression-lists', {
          body: {
            name: formText(form, 'name'),
            kind: formText(form, 'kind') as SuppressionList['kind'],
            action: formText(form, 'action') as SuppressionList['action'],
            expires_after_days: days === '' ? null : Number(days),
            sandbox_only: form.get('sandbox_only') === 'on',
          },
        }),
      );
      setCreating(false);
      lists.reload();
    });
  };

  const toggle = (list: SuppressionList) =>
    void action.run(async () => {
      await call(
        api.PATCH('/api/suppression-lists/{id}', {
          params: { path: { id: list.id } },
          body: { enabled: !list.enabled },
        }),
      );
      lists.reload();
    });

  const remove = (list: SuppressionList) =>
    confirmed(`Delete the suppression list ${list.name} and its ${list.entry_count} entries?`, async () => {
      await call(api.DELETE('/api/suppression-lists/{id}', { params: { path: { id: list.id } } }));
      if (open?.id === list.id) setOpen(null);
      lists.reload();
    });

  const addValues = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!open) return;
    const form = new FormData(event.currentTarget);
    const values = formText(form, 'values')
      .split(/\r?\n/)
      .map((value) => value.trim())
      .filter((value) => value !== '');
    const file = form.get('file');
    const target = event.currentTarget;
    void action.run(async () => {
      setMessage(null);
      if (values.length > 0) {
        const added = await call(
          api.POST('/api/suppression-lists/{id}/entries', { params: { path: { id: open.id } }, body: { values } }),
        );
        setMessage(`${added.data.added} new entries; the list holds ${added.data.entry_count}.`);
      }
      if (file instanceof File && file.size > 0) {
        const job = await sendCsv(open.id, file);
        setMessage(importText(job));
        await pollImport(job, (next) => setMessage(importText(next))).catch((error: unknown) =>
          setMessage(errorText(error)),
        );
      }
      target.reset();
      lists.reload();
    });
  };

  const check = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!open) return;
    const value = formText(new FormData(event.currentTarget), 'value');
    void action.run(async () => {
      const answer = await call(
        api.GET('/api/suppression-lists/{id}/entries/check', {
          params: { path: { id: open.id }, query: { value } },
        }),
      );
      const result = answer.data;
      setMessage(
        result.suppressed
          ? `On the list since ${formatDateTime(result.added_at)}${result.expires_at ? `, until ${formatDateTime(result.expires_at)}` : ''}.`
          : result.added_at
            ? `Was on the list; expired ${formatDateTime(result.expires_at)}.`
            : 'Not on the list.',
      );
    });
  };

  return (
    <section>
      <PageHeader title="Suppression lists">
        {writable && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New suppression list
          </button>
        )}
      </PageHeader>
      <p className="muted">
        Leads whose email, phone or email domain is on an enabled list are rejected (reason <code>suppressed</code>) or
        flagged for manual review. Values are kept only as SHA-256 hashes.
      </p>
      <Alert>{action.error ?? lists.error}</Alert>
      <Alert tone="info">{message}</Alert>
      {creating && (
        <form className="card" aria-label="New suppression list" onSubmit={create}>
          <div className="grid">
            <Field label="Name" name="name" required maxLength={200} autoFocus />
            <Select label="Values" name="kind" options={KINDS} defaultValue="email" />
            <Select label="Action" name="action" options={ACTIONS} defaultValue="reject" />
            <Field
              label="Entries expire after (days, optional)"
              name="expires_after_days"
              type="number"
              min={1}
              max={36500}
              hint="Empty: entries stay until removed."
            />
            <Check label="Sandbox only" name="sandbox_only" />
          </div>
          <FormActions submitLabel="Create list" pending={action.pending} onCancel={() => setCreating(false)} />
        </form>
      )}
      <ListState loaded={lists} what="suppression lists">
        {(data) => (
          <DataTable
            rows={data}
            columns={['Name', 'Values', 'Action', 'Expiry', 'Entries', 'Status', 'Created', 'Actions']}
            empty="No suppression list yet."
          >
            {(list) => (
              <tr key={list.id}>
                <td>{list.name}</td>
                <td>{KIND_TEXT[list.kind]}</td>
                <td>{list.action === 'reject' ? 'Reject' : 'Flag'}</td>
                <td>{list.expires_after_days === null ? 'Never' : `${list.expires_after_days} days`}</td>
                <td>{list.entry_count}</td>
                <td>
                  {list.enabled ? 'Enabled' : 'Disabled'}
                  {list.sandbox_only ? ' (sandbox only)' : ''}
                </td>
                <td>{formatDateTime(list.created_at)}</td>
                <td className="actions">
                  <RowAction label="Open" name={list.name} onClick={() => setOpen(list)} />
                  {writable && (
                    <RowAction
                      label={list.enabled ? 'Disable' : 'Enable'}
                      name={list.name}
                      onClick={() => toggle(list)}
                    />
                  )}
                  {writable && <RowAction label="Delete" name={list.name} onClick={() => remove(list)} danger />}
                </td>
              </tr>
            )}
          </DataTable>
        )}
      </ListState>
      {open && (
        <div className="card" aria-label={`List ${open.name}`}>
          <h2>
            <bdi>{open.name}</bdi>
          </h2>
          <form aria-label="Value check" onSubmit={check} className="row" style={{ alignItems: 'flex-end' }}>
            <Field label="Check a value" name="value" required maxLength={320} />
            <button type="submit" disabled={action.pending}>
              Check
            </button>
          </form>
          {writable && (
            <form aria-label="New values" onSubmit={addValues}>
              <TextArea label="Add values (one per line, up to 10,000)" name="values" rows={6} className="mono" />
              <Field
                label="Or import a CSV file of one column (up to 1,000,000 rows)"
                name="file"
                type="file"
                accept=".csv,text/csv,text/plain"
              />
              <FormActions submitLabel="Add to list" pending={action.pending} onCancel={() => setOpen(null)} />
            </form>
          )}
        </div>
      )}
    </section>
  );
}
