/**
 * One lead (GET /api/leads/:id) with its activity timeline (GET /api/leads/:id/activity) and its
 * status (PATCH /api/leads/:id); its CRM sync and route, with "Sync to CRM" (lead-crm.panel.tsx). A lead still in the pipeline answers 409 LEAD_PROCESSING: the
 * page says so and tries again. Statuses, flags and warnings read as sentences (lead-text.ts); the
 * route reads the same in the details and the timeline; user text is isolated (<bdi>), so a
 * right-to-left override in it cannot reverse what follows; the raw event data is folded away.
 * In the sandbox (the environment switch) the lead is read-only.
 */
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { Schemas } from '@leadstream/client';
import { api, call, ConsoleError } from '../api/client';
import { currentEnvironment } from '../api/environment';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import { Alert, Loading, PageHeader, Select, StatusBadge, formatDateTime } from '../components/ui';
import { LEAD_STATUSES, type LeadStatus } from './lead-statuses';
import { LeadCrmPanel, StageEndText } from './lead-crm.panel';
import { reviewSentences, validationText, whyNotEnriched } from './lead-text';
import { routeText } from './routing-text';
import { LeadTimelinePanel } from './lead-timeline.panel';
import { DoNotContactPanel, useSuppressionLists } from './do-not-contact.panel';
import { LeadConsentPanel } from './lead-consent.panel';

type ActivityEntry = Schemas['ActivityEntry'];
type RouteReason = Schemas['LeadRoute']['reason'];
const ROUTE_REASONS: readonly string[] = ['rule', 'default', 'all_connections', 'none'];

const SHOWN: ReadonlyArray<[keyof Schemas['Lead'], string]> = [
  ['email', 'Email'],
  ['phone', 'Phone'],
  ['vendor_name', 'Vendor'],
  ['source', 'Source'],
  ['program', 'Program'],
  ['program_interest', 'Program interest'],
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
  const lead = useLoad(
    () => call(api.GET('/api/leads/{id}', { params: { path: { id } } })).then((answer) => answer.data),
    `${id}:${round}`,
  );
  const activity = useLoad(
    () => call(api.GET('/api/leads/{id}/activity', { params: { path: { id } } })).then((answer) => answer.data),
    `${id}:${round}`,
  );
  const processing = lead.errorCode === 'LEAD_PROCESSING';
  // The page is mounted again when the environment switch changes (components/layout.tsx).
  const sandbox = currentEnvironment() === 'sandbox';
  // Owners and admins put a person on a suppression list from here (do not contact, erasure).
  const suppressionLists = useSuppressionLists(can(role, 'suppression:write') && !sandbox);
  // The routing rule's name, for the details and the timeline alike.
  const ruleId = lead.data?.routing?.rule_id ?? null;
  const rule = useLoad(
    async () =>
      ruleId && can(role, 'rules:read')
        ? (await call(api.GET('/api/routing/rules/{id}', { params: { path: { id: ruleId } } }))).data
        : undefined,
    ruleId ?? '',
  );
  const ruleName = (id: unknown): string | null =>
    typeof id !== 'string' ? null : id === ruleId ? (rule.data?.name ?? id) : id;
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
  const validated = activity.data?.find((entry) => entry.event === 'lead.validated')?.metadata;
  const review = reviewSentences(validated, data.review_flags);
  const notEnriched = whyNotEnriched(data);
  const enriched = activity.data?.find((entry) => entry.event === 'lead.enriched');
  return (
    <section>
      <p>
        <Link to="/leads">← Leads</Link>
      </p>
      <PageHeader title={name || data.email || 'Erased lead'}>
        {sandbox && <span className="badge badge-sandbox">sandbox</span>}
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
          {can(role, 'leads:write') && !data.deleted_at && (
            <StatusEditor lead={data} onSaved={() => setRound((value) => value + 1)} />
          )}
          {can(role, 'suppression:write') && !sandbox && (
            <DoNotContactPanel leadId={data.id} lists={suppressionLists} />
          )}
          <h2>Details</h2>
          <dl className="details">
            {SHOWN.map(([key, label]) => {
              const value = data[key];
              if (value === null || value === undefined || value === '') return null;
              return (
                <div key={key}>
                  <dt>{label}</dt>
                  <dd>
                    {typeof value === 'string' && key.endsWith('_at') ? (
                      formatDateTime(value)
                    ) : (
                      <bdi>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</bdi>
                    )}
                  </dd>
                </div>
              );
            })}
            <div>
              <dt>Validation</dt>
              <dd>{validationText(data.validation_status)}</dd>
            </div>
            {(notEnriched || enriched) && (
              <div>
                <dt>Enrichment</dt>
                <dd>
                  {notEnriched ? (
                    <StageEndText prefix="Skipped" end={notEnriched} />
                  ) : (
                    `Rules applied, ${formatDateTime(enriched?.timestamp)}`
                  )}
                </dd>
              </div>
            )}
            {data.duplicate_of && (
              <div>
                <dt>Duplicate of</dt>
                <dd>
                  <Link to={`/leads/${encodeURIComponent(data.duplicate_of)}`}>{data.duplicate_of}</Link>
                </dd>
              </div>
            )}
          </dl>
          {review.length > 0 && (
            <section aria-labelledby="lead-review" className="card review">
              <h2 id="lead-review">{data.validation_status === 'flagged' ? 'Flagged for review' : 'Warnings'}</h2>
              <ul>
                {review.map((sentence, index) => (
                  <li key={index}>
                    <bdi>{sentence}</bdi>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <LeadCrmPanel
            lead={data}
            sandbox={sandbox}
            ruleName={ruleName(data.routing?.rule_id)}
            onQueued={() => setRound((value) => value + 1)}
          />
          <ObjectList title="Enrichment data" value={data.enrichment_data} />
          <ObjectList title="Custom fields" value={data.custom_fields} />
          <ObjectList title="Calculated fields" value={data.calculated_fields} />
          <LeadConsentPanel
            leadId={data.id}
            round={round}
            canErase={can(role, 'leads:erase') && !sandbox}
            onErased={() => setRound((value) => value + 1)}
            lists={suppressionLists}
          />
        </div>
        <div>
          <LeadTimelinePanel leadId={data.id} round={round} />
          <h2>Activity</h2>
          <Alert>{activity.error}</Alert>
          <ol className="timeline" aria-label="Activity timeline">
            {activity.data?.map((entry: ActivityEntry) => {
              const text = entryText(entry, ruleName);
              return (
                <li key={entry.id}>
                  <div className="timeline-head">
                    <code>{entry.event}</code>
                    <time dateTime={entry.timestamp}>{formatDateTime(entry.timestamp)}</time>
                  </div>
                  {text && <p>{text}</p>}
                  {entry.metadata && Object.keys(entry.metadata).length > 0 && (
                    <details>
                      <summary>Raw event data</summary>
                      <pre>{JSON.stringify(entry.metadata, null, 2)}</pre>
                    </details>
                  )}
                </li>
              );
            })}
          </ol>
        </div>
      </div>
    </section>
  );
}

/** A timeline entry in words: the route in the details' words (routing-text.ts), else the entry's own description. */
function entryText(entry: ActivityEntry, ruleName: (id: unknown) => string | null): string | null {
  const metadata: Record<string, unknown> = entry.metadata ?? {};
  const reason = metadata['reason'];
  if (entry.event === 'lead.routed' && typeof reason === 'string' && ROUTE_REASONS.includes(reason))
    return `${routeText(reason as RouteReason, ruleName(metadata['rule_id']))}.`;
  return entry.description ?? null;
}

function ObjectList({ title, value }: { title: string; value: Record<string, unknown> | undefined }) {
  if (!value || Object.keys(value).length === 0) return null;
  return (
    <>
      <h2>{title}</h2>
      <dl className="details">
        {Object.entries(value).map(([key, item]) => (
          <div key={key}>
            <dt>
              <bdi>{key}</bdi>
            </dt>
            <dd>
              <bdi>{typeof item === 'string' ? item : JSON.stringify(item)}</bdi>
            </dd>
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
        if (error instanceof ConsoleError && error.apiError.code === 'LEAD_PROCESSING')
          throw new Error('The lead is still being processed; try again in a moment.');
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
      <Select
        label="Status"
        value={status}
        onChange={(event) => setStatus(event.target.value as LeadStatus)}
        options={LEAD_STATUSES.map((value) => [value, value] as const)}
      />
      <button type="submit" className="primary" disabled={action.pending || status === lead.status}>
        Save status
      </button>
      <Alert>{action.error}</Alert>
      <Alert tone="success">{saved && 'Status saved.'}</Alert>
    </form>
  );
}
