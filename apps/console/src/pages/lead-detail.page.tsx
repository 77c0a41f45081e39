/**
 * One lead (GET /api/leads/:id) with its activity timeline (GET /api/leads/:id/activity) and its
 * status (PATCH /api/leads/:id); its CRM sync and route, with "Sync to CRM" (lead-crm.panel.tsx). A lead still in the pipeline answers 409 LEAD_PROCESSING: the
 * page says so and tries again.
 */
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { Schemas } from '@leadstream/client';
import { api, call, ConsoleError } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import { Alert, Loading, PageHeader, Select, StatusBadge, formatDateTime } from '../components/ui';
import { LEAD_STATUSES, type LeadStatus } from './lead-statuses';
import { LeadCrmPanel } from './lead-crm.panel';

const SHOWN: ReadonlyArray<[keyof Schemas['Lead'], string]> = [
  ['email', 'Email'],
  ['phone', 'Phone'],
  ['vendor_name', 'Vendor'],
  ['source', 'Source'],
  ['program', 'Program'],
  ['program_interest', 'Program interest'],
  ['validation_status', 'Validation'],
  ['duplicate_of', 'Duplicate of'],
  ['utm_source', 'UTM source'],
  ['utm_medium', 'UTM medium'],
  ['utm_campaign', 'UTM campaign'],
  ['landing_page', 'Landing page'],
  ['ip_address', 'IP address'],
  ['created_at', 'Received'],
  ['updated_at', 'Updated'],
];

export function LeadDetailPage() {
  const { id = '' } = useParams();
  const role = currentSession()?.user.role;
  const [round, setRound] = useState(0);
  const lead = useLoad(() => call(api.GET('/api/leads/{id}', { params: { path: { id } } })).then((answer) => answer.data), `${id}:${round}`);
  const activity = useLoad(() => call(api.GET('/api/leads/{id}/activity', { params: { path: { id } } })).then((answer) => answer.data), `${id}:${round}`);
  const processing = lead.errorCode === 'LEAD_PROCESSING';
  const navigate = useNavigate();
  const removal = useAction();
  const confirmedRemoval = useConfirmedAction(removal);
  const remove = () =>
    confirmedRemoval('Delete this lead? It is kept as a deleted record.', async () => {
      await call(api.DELETE('/api/leads/{id}', { params: { path: { id } } }));
      void navigate('/leads');
    });
  // A lead the pipeline has not decided yet: look again shortly.
  useEffect(() => {
    if (!processing) return;
    const timer = setTimeout(() => setRound((value) => value + 1), 1000);
    return () => clearTimeout(timer);
  }, [processing, round]);

  if (!lead.data) {
    return (
      <section>
        <p>
          <Link to="/leads">← Leads</Link>
        </p>
        {lead.error ? <Alert tone={processing ? 'info' : 'error'}>{lead.error}</Alert> : <Loading what="the lead" />}
      </section>
    );
  }
  const data = lead.data;
  const name = [data.first_name, data.last_name].filter(Boolean).join(' ');
  return (
    <section>
      <p>
        <Link to="/leads">← Leads</Link>
      </p>
      <PageHeader title={name || data.email}>
        <StatusBadge status={data.status} />
        {data.deleted_at && <span className="badge">deleted {formatDateTime(data.deleted_at)}</span>}
        {can(role, 'leads:write') && !data.deleted_at && (
          <button type="button" className="danger" onClick={remove} disabled={removal.pending}>
            Delete lead
          </button>
        )}
      </PageHeader>
      <Alert>{removal.error}</Alert>
      <div className="columns">
        <div>
          {can(role, 'leads:write') && !data.deleted_at && <StatusEditor lead={data} onSaved={() => setRound((value) => value + 1)} />}
          <h2>Details</h2>
          <dl className="details">
            {SHOWN.map(([key, label]) => {
              const value = data[key];
              if (value === null || value === undefined || value === '') return null;
              return (
                <div key={key}>
                  <dt>{label}</dt>
                  <dd>{typeof value === 'string' && key.endsWith('_at') ? formatDateTime(value) : typeof value === 'object' ? JSON.stringify(value) : String(value)}</dd>
                </div>
              );
            })}
          </dl>
          <LeadCrmPanel lead={data} onQueued={() => setRound((value) => value + 1)} />
          <ObjectList title="Enrichment data" value={data.enrichment_data} />
          <ObjectList title="Custom fields" value={data.custom_fields} />
          <ObjectList title="Calculated fields" value={data.calculated_fields} />
        </div>
        <div>
          <h2>Activity</h2>
          <Alert>{activity.error}</Alert>
          <ol className="timeline" aria-label="Activity timeline">
            {activity.data?.map((entry: Schemas['ActivityEntry']) => (
              <li key={entry.id}>
                <div className="timeline-head">
                  <code>{entry.event}</code>
                  <time dateTime={entry.timestamp}>{formatDateTime(entry.timestamp)}</time>
                </div>
                {entry.description && <p>{entry.description}</p>}
                {entry.metadata && Object.keys(entry.metadata).length > 0 && (
                  <details>
                    <summary>Details</summary>
                    <pre>{JSON.stringify(entry.metadata, null, 2)}</pre>
                  </details>
                )}
              </li>
            ))}
          </ol>
        </div>
      </div>
    </section>
  );
}

function ObjectList({ title, value }: { title: string; value: Record<string, unknown> | undefined }) {
  if (!value || Object.keys(value).length === 0) return null;
  return (
    <>
      <h2>{title}</h2>
      <dl className="details">
        {Object.entries(value).map(([key, item]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>{typeof item === 'string' ? item : JSON.stringify(item)}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

function StatusEditor({ lead, onSaved }: { lead: Schemas['Lead']; onSaved: () => void }) {
  const [status, setStatus] = useState<LeadStatus>(lead.status);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const save = () =>
    void action.run(async () => {
      setSaved(false);
      try {
        await call(api.PATCH('/api/leads/{id}', { params: { path: { id: lead.id } }, body: { status } }));
      } catch (error) {
        if (error instanceof ConsoleError && error.apiError.code === 'LEAD_PROCESSING') throw new Error('The lead is still being processed; try again in a moment.');
        throw error;
      }
      setSaved(true);
      onSaved();
    });
  return (
    <form
      className="inline-form"
      aria-label="Change status"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <Select label="Status" value={status} onChange={(event) => setStatus(event.target.value as LeadStatus)} options={LEAD_STATUSES.map((value) => [value, value] as const)} />
      <button type="submit" className="primary" disabled={action.pending || status === lead.status}>
        Save status
      </button>
      <Alert>{action.error}</Alert>
      <Alert tone="success">{saved && 'Status saved.'}</Alert>
    </form>
  );
}
