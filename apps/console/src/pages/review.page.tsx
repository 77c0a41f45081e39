/**
 * The review queue (docs/review-queue.md): leads flagged for manual review, oldest first, each flag
 * in words, with approve and reject per lead, for the selected leads at once, and from the
 * keyboard (a row focused: A approves, R rejects, X selects, J and K move). Managers and above
 * decide; viewers see the queue. A decision is applied by the pipeline within moments: the lead
 * leaves the list at once and the list is read again shortly after.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { DataTable, ListState } from '../components/list';
import { useAction, useLoad } from '../components/use-load';
import { Alert, Field, PageHeader, RowAction, Select, formatDateTime } from '../components/ui';

const FLAG_NAMES: Record<string, string> = {
  possible_bot: 'Possible bot',
  email_typo: 'Email typo',
  high_risk_ip: 'High-risk IP',
  possible_duplicate: 'Possible duplicate',
  rule: 'Rule',
};

type Decision = 'approve' | 'reject';

interface ReviewItem {
  lead_id: string;
  email?: string | null;
  vendor_id?: string | null;
  received_at: string;
  waiting_seconds: number;
  overdue: boolean;
  flags: string[];
  reasons: Array<{ kind: string; text: string; lead_id?: string; score?: number }>;
}

/** How long a lead has waited, in the largest unit that fits. */
export function waitedText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3_600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

export function ReviewPage() {
  const writable = can(currentSession()?.user.role, 'leads:write');
  const [flag, setFlag] = useState('');
  const [reason, setReason] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [decided, setDecided] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const action = useAction();
  const queue = useLoad(
    async () =>
      call(
        api.GET('/api/review-queue', {
          params: { query: { limit: 100, ...(flag ? { flag: flag as 'possible_bot' } : {}) } },
        }),
      ),
    `review-${flag}`,
  );
  const rows = useRef<Map<string, HTMLTableRowElement>>(new Map());
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(reloadTimer.current), []);

  const items = ((queue.data?.data ?? []) as ReviewItem[]).filter((item) => !decided.has(item.lead_id));
  const counts = (queue.data?.meta as { counts?: Record<string, number> } | undefined)?.counts ?? {};

  const decide = (ids: string[], decision: Decision) => {
    if (ids.length === 0) return;
    if (decision === 'reject' && reason.trim() === '') {
      action.clear();
      setNotice(null);
      void action.run(async () => {
        throw new Error('Give a reason (above the list) to reject.');
      });
      return;
    }
    void action.run(async () => {
      const body = decision === 'reject' ? { reason: reason.trim() } : {};
      if (ids.length === 1) {
        const path = { params: { path: { lead_id: ids[0]! } } };
        if (decision === 'approve') await call(api.POST('/api/review-queue/{lead_id}/approve', { ...path, body }));
        else await call(api.POST('/api/review-queue/{lead_id}/reject', { ...path, body: { reason: reason.trim() } }));
      } else {
        const result = await call(
          api.POST('/api/review-queue/decide', {
            body: { lead_ids: ids, decision, ...(decision === 'reject' ? { reason: reason.trim() } : {}) },
          }),
        );
        if (result.failed > 0) throw new Error(`${result.failed} of ${ids.length} could not be decided.`);
      }
      setDecided((previous) => new Set([...previous, ...ids]));
      setSelected((previous) => new Set([...previous].filter((id) => !ids.includes(id))));
      setNotice(
        `${decision === 'approve' ? 'Approved' : 'Rejected'} ${ids.length === 1 ? '1 lead' : `${ids.length} leads`}.`,
      );
      clearTimeout(reloadTimer.current);
      reloadTimer.current = setTimeout(() => queue.reload(), 1_500);
    });
  };

  const toggle = (id: string) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, item: ReviewItem, index: number) => {
    if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return;
    const move = (to: number) => rows.current.get(items[to]?.lead_id ?? '')?.focus();
    switch (event.key.toLowerCase()) {
      case 'a':
        if (writable) decide([item.lead_id], 'approve');
        break;
      case 'r':
        if (writable) decide([item.lead_id], 'reject');
        break;
      case 'x':
        toggle(item.lead_id);
        break;
      case 'j':
      case 'arrowdown':
        move(index + 1);
        break;
      case 'k':
      case 'arrowup':
        move(index - 1);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const allSelected = items.length > 0 && items.every((item) => selected.has(item.lead_id));
  return (
    <section>
      <PageHeader title="Review" />
      <p className="muted">
        Leads flagged for manual review wait here: they are stored and were accepted, but are not routed or sent to a
        CRM until approved. {writable && 'With a row focused: A approves, R rejects, X selects, J and K move.'}
      </p>
      <Alert>{action.error ?? queue.error}</Alert>
      <Alert tone="success">{notice}</Alert>
      <div className="inline-form card">
        <Select
          label="Flag"
          value={flag}
          onChange={(event) => setFlag(event.target.value)}
          options={[
            ['', 'Every flag'],
            ...Object.entries(FLAG_NAMES).map(
              ([kind, name]) => [kind, `${name} (${counts[kind] ?? 0})`] as [string, string],
            ),
          ]}
        />
        {writable && (
          <>
            <Field
              label="Reason for rejections"
              name="reason"
              value={reason}
              maxLength={1_000}
              onChange={(event) => setReason(event.target.value)}
            />
            <button
              type="button"
              className="primary"
              disabled={action.pending || selected.size === 0}
              onClick={() => decide([...selected], 'approve')}
            >
              Approve selected ({selected.size})
            </button>
            <button
              type="button"
              className="danger"
              disabled={action.pending || selected.size === 0}
              onClick={() => decide([...selected], 'reject')}
            >
              Reject selected ({selected.size})
            </button>
          </>
        )}
      </div>
      <ListState loaded={queue} what="the review queue">
        {() => (
          <DataTable
            rows={items}
            label="Leads waiting for review"
            testId="review-queue"
            empty="No lead is waiting for review."
            columns={[
              writable && 'Select',
              'Lead',
              'Vendor',
              'Received',
              'Waiting',
              'Why it is here',
              writable && 'Decision',
            ]}
          >
            {(item, index) => (
              <tr
                key={item.lead_id}
                tabIndex={0}
                data-lead-id={item.lead_id}
                ref={(row) => {
                  if (row) rows.current.set(item.lead_id, row);
                  else rows.current.delete(item.lead_id);
                }}
                aria-selected={selected.has(item.lead_id)}
                onKeyDown={(event) => onRowKey(event, item, index)}
              >
                {writable && (
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${item.email ?? item.lead_id}`}
                      checked={selected.has(item.lead_id)}
                      onChange={() => toggle(item.lead_id)}
                    />
                  </td>
                )}
                <td>
                  <Link to={`/leads/${encodeURIComponent(item.lead_id)}`}>
                    <bdi>{item.email ?? item.lead_id}</bdi>
                  </Link>
                </td>
                <td>{item.vendor_id ?? '—'}</td>
                <td>{formatDateTime(item.received_at)}</td>
                <td>
                  {waitedText(item.waiting_seconds)}
                  {item.overdue && <span className="badge badge-danger"> overdue</span>}
                </td>
                <td>
                  <ul className="plain">
                    {item.reasons.map((reasonItem, at) => (
                      <li key={at}>
                        <strong>{FLAG_NAMES[reasonItem.kind] ?? reasonItem.kind}:</strong>{' '}
                        {reasonItem.lead_id ? (
                          <ReasonWithLink text={reasonItem.text} leadId={reasonItem.lead_id} />
                        ) : (
                          <bdi>{reasonItem.text}</bdi>
                        )}
                      </li>
                    ))}
                  </ul>
                </td>
                {writable && (
                  <td>
                    <RowAction
                      label="Approve"
                      name={item.email ?? item.lead_id}
                      disabled={action.pending}
                      onClick={() => decide([item.lead_id], 'approve')}
                    />{' '}
                    <RowAction
                      label="Reject"
                      name={item.email ?? item.lead_id}
                      disabled={action.pending}
                      danger
                      onClick={() => decide([item.lead_id], 'reject')}
                    />
                  </td>
                )}
              </tr>
            )}
          </DataTable>
        )}
      </ListState>
      {writable && items.length > 0 && (
        <p>
          <button
            type="button"
            onClick={() => setSelected(allSelected ? new Set() : new Set(items.map((item) => item.lead_id)))}
          >
            {allSelected ? 'Select none' : 'Select all shown'}
          </button>
        </p>
      )}
    </section>
  );
}

/** "similar to lead_… (score 0.91)" with the lead's id as a link to it. */
function ReasonWithLink({ text, leadId }: { text: string; leadId: string }) {
  const at = text.indexOf(leadId);
  if (at < 0)
    return (
      <>
        <bdi>{text}</bdi> (<Link to={`/leads/${encodeURIComponent(leadId)}`}>{leadId}</Link>)
      </>
    );
  return (
    <>
      {text.slice(0, at)}
      <Link to={`/leads/${encodeURIComponent(leadId)}`}>{leadId}</Link>
      {text.slice(at + leadId.length)}
    </>
  );
}
