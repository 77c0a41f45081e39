/** Deduplication settings (docs/decisions.md "Deduplication"): GET and POST /api/dedup, and the recent decisions. */
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { DataTable } from '../components/list';
import { useAction, useLoad } from '../components/use-load';
import { Alert, Check, Field, Loading, PageHeader, Select, formatDateTime } from '../components/ui';
import { formText } from '../components/form-text';

const ACTIONS = ['reject', 'merge', 'link-to-existing', 'flag', 'allow'] as const;
const WINDOWS: ReadonlyArray<readonly [string, string]> = [
  ['1', '1 hour'],
  ['24', '24 hours'],
  ['168', '7 days'],
  ['720', '30 days'],
  ['all', 'All time'],
];

export function DedupPage() {
  const writable = can(currentSession()?.user.role, 'dedup:write');
  const config = useLoad(async () => (await call(api.GET('/api/dedup'))).data, 'dedup');
  const log = useLoad(
    async () => (await call(api.GET('/api/dedup/log', { params: { query: { limit: 20 } } }))).data,
    'dedup-log',
  );
  const action = useAction();
  const [saved, setSaved] = useState(false);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const window = formText(form, 'window_hours');
    void action.run(async () => {
      setSaved(false);
      const body = {
        enabled: form.get('enabled') === 'on',
        threshold: Number(formText(form, 'threshold')),
        window_hours: window === 'all' ? ('all' as const) : (Number(window) as 1),
        action: formText(form, 'action') as (typeof ACTIONS)[number],
      };
      await call(api.POST('/api/dedup', { body: body as never }));
      setSaved(true);
      config.reload();
    });
  };
  const data = config.data;
  return (
    <section>
      <PageHeader title="Deduplication" />
      <Alert>{action.error ?? config.error}</Alert>
      <Alert tone="success">{saved && 'Settings saved. The next lead is checked with them.'}</Alert>
      {!data ? (
        config.error ? null : (
          <Loading what="the settings" />
        )
      ) : (
        <form className="card" aria-label="Deduplication settings" onSubmit={submit} key={JSON.stringify(data)}>
          <fieldset disabled={!writable}>
            <Check label="Deduplication enabled" name="enabled" defaultChecked={data.enabled} />
            <div className="grid">
              <Field
                label="Threshold (0-100)"
                name="threshold"
                type="number"
                min={0}
                max={100}
                step="any"
                defaultValue={data.threshold}
                hint="Similarity score from which two leads are the same person."
              />
              <Select
                label="Window"
                name="window_hours"
                defaultValue={data.window_hours === null ? 'all' : String(data.window_hours)}
                options={WINDOWS}
              />
              <Select
                label="Action on a duplicate"
                name="action"
                defaultValue={data.action}
                options={ACTIONS.map((value) => [value, value] as const)}
              />
            </div>
            <p className="muted">
              Matched on:{' '}
              {data.match_fields.map((field) => String((field as Record<string, unknown>)['field'])).join(', ')} (
              {data.combination ?? 'weighted'}, scope {data.scope ?? 'organization'}).
            </p>
            {writable && (
              <button type="submit" className="primary" disabled={action.pending}>
                Save settings
              </button>
            )}
          </fieldset>
        </form>
      )}
      <h2>Recent decisions</h2>
      <Alert>{log.error}</Alert>
      <DataTable
        rows={log.data ?? []}
        columns={['When', 'Lead', 'Matched lead', 'Score', 'Action']}
        empty={log.data ? 'No duplicate found yet.' : undefined}
      >
        {(entry, index) => (
          <tr key={`${entry.timestamp}:${index}`}>
            <td>{formatDateTime(entry.timestamp)}</td>
            <td>{entry.lead_id ?? '—'}</td>
            <td>{entry.matched_lead_id ?? '—'}</td>
            <td>{entry.final_score ?? '—'}</td>
            <td>{entry.action_taken}</td>
          </tr>
        )}
      </DataTable>
    </section>
  );
}
