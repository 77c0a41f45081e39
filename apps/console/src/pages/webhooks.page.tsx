/**
 * Webhooks (docs/webhooks.md): the subscriptions with their delivery stats; create (the signing
 * secret is shown once, with a copy button), edit URL and events, enable/disable, delete; "Send
 * test" (a signed evt_test_ event, its outcome shown); the delivery log of one webhook, paged, with
 * "Re-send" per delivery. A webhook the service disabled after repeated failures says when and why.
 */
import { useState, type FormEvent } from 'react';
import type { Schemas, paths } from '@leadstream/client';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { DataTable, InlineEditRow, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import {
  Alert,
  Check,
  Field,
  FormActions,
  PageHeader,
  RowAction,
  SecretOnce,
  StatusBadge,
  formatDateTime,
} from '../components/ui';
import { formText } from '../components/form-text';

type Webhook = Schemas['Webhook'];
type WebhookEvent = paths['/api/webhooks']['post']['requestBody']['content']['application/json']['events'][number];

/** Every event a webhook can subscribe to (a Record, so a new event in the contract is a type error here). */
const EVENT_LABELS: Record<WebhookEvent, string> = {
  'lead.created': 'a lead is received',
  'lead.accepted': 'a lead is accepted',
  'lead.validated': 'a lead passes validation',
  'lead.rejected': 'a lead is rejected',
  'lead.duplicate': 'a duplicate is found',
  'lead.enriched': 'a lead is enriched',
  'lead.updated': 'a lead is changed',
  'lead.deleted': 'a lead is deleted',
  'lead.erased': "a person's data is erased",
  'lead.crm_synced': 'a lead reaches a CRM',
  'lead.crm_sync_failed': 'a CRM sync fails',
  'lead.reviewed': 'a flagged lead is approved or rejected',
  'vendor.enabled': 'a vendor is enabled',
  'vendor.disabled': 'a vendor is disabled',
  'export.completed': 'an export is ready',
  'export.failed': 'an export fails',
  'cap.reached': 'a volume cap is reached',
};
const EVENTS = Object.keys(EVENT_LABELS) as WebhookEvent[];
const PAGE_SIZE = 20;

const sendTest = (id: string) => call(api.POST('/api/webhooks/{id}/test', { params: { path: { id } } }));
type TestResult = Awaited<ReturnType<typeof sendTest>>;

function eventsOf(form: FormData): WebhookEvent[] {
  return EVENTS.filter((event) => form.get(`event:${event}`) === 'on');
}

function EventChecks({ checked }: { checked: readonly string[] }) {
  return (
    <fieldset>
      <legend>Events</legend>
      <div className="check-grid">
        {EVENTS.map((event) => (
          <Check
            key={event}
            label={`${event} (${EVENT_LABELS[event]})`}
            name={`event:${event}`}
            defaultChecked={checked.includes(event)}
          />
        ))}
      </div>
    </fieldset>
  );
}

export function WebhooksPage() {
  const role = currentSession()?.user.role;
  const writable = can(role, 'webhooks:write');
  const webhooks = useLoad(async () => (await call(api.GET('/api/webhooks'))).data, 'webhooks');
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [tested, setTested] = useState<{ id: string; result: TestResult } | null>(null);
  const [log, setLog] = useState<Webhook | null>(null);

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void action.run(async () => {
      const events = eventsOf(form);
      if (events.length === 0) throw new Error('Choose at least one event.');
      const created = await call(
        api.POST('/api/webhooks', {
          body: {
            url: formText(form, 'url').trim(),
            events,
            description: formText(form, 'description').trim() || null,
            sandbox: form.get('sandbox') === 'on',
          },
        }),
      );
      setSecret({ label: `Signing secret of ${created.data.url}`, value: created.data.secret });
      setCreating(false);
      webhooks.reload();
    });
  };
  const update = (webhook: Webhook, body: { enabled?: boolean; url?: string; events?: WebhookEvent[] }) =>
    action.run(async () => {
      await call(api.PATCH('/api/webhooks/{id}', { params: { path: { id: webhook.id } }, body }));
      webhooks.reload();
    });
  const remove = (webhook: Webhook) =>
    confirmed(`Delete the webhook to ${webhook.url}? Its delivery log is deleted too.`, async () => {
      await call(api.DELETE('/api/webhooks/{id}', { params: { path: { id: webhook.id } } }));
      if (log?.id === webhook.id) setLog(null);
      webhooks.reload();
    });
  const test = (webhook: Webhook) =>
    void action.run(async () => {
      setTested(null);
      setTested({ id: webhook.id, result: await sendTest(webhook.id) });
      webhooks.reload();
    });

  return (
    <section>
      <PageHeader title="Webhooks">
        {writable && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            Add webhook
          </button>
        )}
      </PageHeader>
      <p className="muted">
        Leadstream POSTs each subscribed event to the URL, signed with the webhook's secret in{' '}
        <code>X-Service-Signature</code> (docs/webhooks.md). Failed deliveries are retried; a webhook that keeps failing
        is disabled.
      </p>
      <Alert>{action.error ?? webhooks.error}</Alert>
      {secret && <SecretOnce label={secret.label} value={secret.value} onDone={() => setSecret(null)} />}
      {tested && (
        <TestOutcome
          result={tested.result}
          url={webhooks.data?.find((webhook) => webhook.id === tested.id)?.url ?? ''}
        />
      )}
      {creating && (
        <form className="card" aria-label="New webhook" onSubmit={create}>
          <h2>New webhook</h2>
          <div className="grid">
            <Field
              label="URL"
              name="url"
              type="url"
              required
              placeholder="https://example.edu/hooks/leadstream"
              autoFocus
            />
            <Field label="Description (optional)" name="description" maxLength={500} />
          </div>
          <EventChecks checked={['lead.created']} />
          <Check label="Sandbox endpoint (receives only the events of sandbox leads)" name="sandbox" />
          <FormActions submitLabel="Create webhook" pending={action.pending} onCancel={() => setCreating(false)} />
        </form>
      )}
      <ListState loaded={webhooks} what="webhooks">
        {(data) => (
          <DataTable
            rows={data}
            columns={['URL', 'Events', 'Deliveries', 'Last triggered', 'State', 'Actions']}
            empty="No webhook yet."
          >
            {(webhook) =>
              editing === webhook.id ? (
                <WebhookEditor
                  key={webhook.id}
                  webhook={webhook}
                  onCancel={() => setEditing(null)}
                  onSave={(body) => void update(webhook, body).then((ok) => ok && setEditing(null))}
                />
              ) : (
                <tr key={webhook.id}>
                  <td>
                    <code className="break">{webhook.url}</code>
                    {webhook.sandbox && <span className="badge">sandbox</span>}
                    {webhook.description && <div className="muted">{webhook.description}</div>}
                  </td>
                  <td>{webhook.events.join(', ')}</td>
                  <td>
                    {webhook.stats.successful_deliveries} delivered, {webhook.stats.failed_deliveries} failed
                    <div className="muted">
                      {webhook.stats.total_deliveries} in all, {webhook.stats.last_30_days} in 30 days
                    </div>
                  </td>
                  <td>{formatDateTime(webhook.last_triggered_at)}</td>
                  <td>
                    {webhook.enabled ? 'Enabled' : 'Disabled'}
                    {!webhook.enabled && webhook.disabled_at && (
                      <div className="muted" data-testid="auto-disabled">
                        Disabled automatically on {formatDateTime(webhook.disabled_at)}
                        {webhook.disabled_reason && <div>{webhook.disabled_reason}</div>}
                      </div>
                    )}
                  </td>
                  <td className="actions stack">
                    <button type="button" onClick={() => setLog(webhook)} aria-label={`Deliveries of ${webhook.url}`}>
                      Deliveries
                    </button>
                    {writable && (
                      <>
                        <button
                          type="button"
                          onClick={() => test(webhook)}
                          disabled={action.pending}
                          aria-label={`Send test to ${webhook.url}`}
                        >
                          Send test
                        </button>
                        <RowAction label="Edit" name={webhook.url} onClick={() => setEditing(webhook.id)} />
                        <RowAction
                          label={webhook.enabled ? 'Disable' : 'Enable'}
                          name={webhook.url}
                          onClick={() => void update(webhook, { enabled: !webhook.enabled })}
                        />
                        <RowAction label="Delete" name={webhook.url} onClick={() => remove(webhook)} danger />
                      </>
                    )}
                  </td>
                </tr>
              )
            }
          </DataTable>
        )}
      </ListState>
      {log && (
        <DeliveryLog
          key={log.id}
          webhook={log}
          writable={writable}
          onChange={webhooks.reload}
          onClose={() => setLog(null)}
        />
      )}
    </section>
  );
}

function TestOutcome({ result, url }: { result: TestResult; url: string }) {
  return result.success ? (
    <Alert tone="success">
      <span data-testid="webhook-test-outcome">
        Test event delivered to {url}: HTTP {result.response_status} in {result.response_time_ms} ms (
        {result.test_event_id}).
      </span>
    </Alert>
  ) : (
    <Alert>
      <span data-testid="webhook-test-outcome">
        Test event not delivered to {url} after {result.response_time_ms} ms: {result.error}
      </span>
    </Alert>
  );
}

function WebhookEditor({
  webhook,
  onSave,
  onCancel,
}: {
  webhook: Webhook;
  onSave: (body: { url: string; events: WebhookEvent[] }) => void;
  onCancel: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const events = eventsOf(form);
    if (events.length === 0) {
      setError('Choose at least one event.');
      return;
    }
    onSave({ url: formText(form, 'url').trim(), events });
  };
  return (
    <InlineEditRow
      colSpan={6}
      label={`Edit ${webhook.url}`}
      submitLabel="Save webhook"
      onSubmit={submit}
      onCancel={onCancel}
    >
      <Field label="URL" name="url" type="url" required defaultValue={webhook.url} />
      <EventChecks checked={webhook.events} />
      <Alert>{error}</Alert>
    </InlineEditRow>
  );
}

/** `onChange`: the list's stats and last trigger move with the log, so Refresh and Re-send reload both. */
function DeliveryLog({
  webhook,
  writable,
  onChange,
  onClose,
}: {
  webhook: Webhook;
  writable: boolean;
  onChange: () => void;
  onClose: () => void;
}) {
  const [page, setPage] = useState(1);
  const deliveries = useLoad(
    async () =>
      call(
        api.GET('/api/webhooks/{id}/deliveries', {
          params: { path: { id: webhook.id }, query: { page, limit: PAGE_SIZE } },
        }),
      ),
    `${webhook.id}:${page}`,
  );
  const action = useAction();
  const [resent, setResent] = useState<string | null>(null);
  const resend = (delivery: Schemas['WebhookDelivery']) =>
    void action.run(async () => {
      setResent(null);
      const answer = await call(
        api.POST('/api/webhooks/{id}/deliveries/{delivery_id}/retry', {
          params: { path: { id: webhook.id, delivery_id: delivery.id } },
        }),
      );
      setResent(`Re-send of ${delivery.event_type} queued (${answer.data.resend_id}).`);
      deliveries.reload();
      onChange();
    });
  const meta = deliveries.data?.meta;
  const pages = meta ? Math.max(1, Math.ceil(meta.total / meta.limit)) : 1;
  return (
    <section className="card" aria-labelledby="delivery-log">
      <div className="row">
        <h2 id="delivery-log" className="break">
          Deliveries to {webhook.url}
        </h2>
        <button
          type="button"
          onClick={() => {
            deliveries.reload();
            onChange();
          }}
        >
          Refresh
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <Alert>{action.error ?? deliveries.error}</Alert>
      <Alert tone="success">{resent}</Alert>
      <ListState loaded={deliveries} what="deliveries">
        {({ data }) => (
          <>
            <DataTable
              rows={data}
              columns={[
                'Created',
                'Event',
                'Status',
                'Attempts',
                'Response',
                'Next retry',
                'Error',
                writable && 'Actions',
              ]}
              empty="No delivery yet."
              label="Delivery log"
            >
              {(delivery) => (
                <tr key={delivery.id}>
                  <td>{formatDateTime(delivery.created_at)}</td>
                  <td>
                    <code>{delivery.event_type}</code>
                    <div className="muted break">{delivery.event_id}</div>
                  </td>
                  <td>
                    <StatusBadge status={delivery.status} />
                  </td>
                  <td>{delivery.attempts}</td>
                  <td>
                    {delivery.response_status ?? '—'}
                    {delivery.response_time_ms !== null && <div className="muted">{delivery.response_time_ms} ms</div>}
                  </td>
                  <td>{formatDateTime(delivery.next_retry_at)}</td>
                  <td>{delivery.error ?? ''}</td>
                  {writable && (
                    <td className="actions">
                      <button
                        type="button"
                        onClick={() => resend(delivery)}
                        disabled={action.pending}
                        aria-label={`Re-send ${delivery.event_type} ${delivery.id}`}
                      >
                        Re-send
                      </button>
                    </td>
                  )}
                </tr>
              )}
            </DataTable>
            <div className="row pager">
              <button type="button" onClick={() => setPage(page - 1)} disabled={page <= 1}>
                Previous
              </button>
              <span role="status">
                Page {page} of {pages} · {meta?.total ?? 0} deliveries
              </span>
              <button type="button" onClick={() => setPage(page + 1)} disabled={page >= pages}>
                Next
              </button>
            </div>
          </>
        )}
      </ListState>
    </section>
  );
}
