/**
 * A lead's consent evidence (GET /api/leads/:id/consent, docs/consent.md): what the person agreed
 * to, when, where and how, the SHA-256 of the evidence and whether it still matches (the tamper
 * check). Owners and admins also get "Erase personal data" (POST /api/leads/:id/erase), which
 * leaves a tombstone of the lead and can put its email on a suppression list first.
 */
import { useState } from 'react';
import { api, call } from '../api/client';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import { Alert, formatDateTime, Select } from '../components/ui';
import type { SuppressionLists } from './do-not-contact.panel';

const METHODS: Record<string, string> = {
  checkbox: 'Checkbox',
  signature: 'Signature',
  verbal: 'Verbal',
  other: 'Other',
};

/** The check in words: kept as received, changed since, or nothing to check. */
export function consentCheckText(matches: boolean | null, erased: boolean): string {
  if (erased) return 'Erased with the personal data of this lead.';
  if (matches === null) return 'No consent evidence came with this submission.';
  return matches
    ? 'Unchanged since it was received: the SHA-256 matches.'
    : 'Changed since it was received: the SHA-256 does not match.';
}

export function LeadConsentPanel({
  leadId,
  round,
  canErase,
  onErased,
  lists,
}: {
  leadId: string;
  round: number;
  canErase: boolean;
  onErased: () => void;
  /** The suppression lists the erasure may add the person to (loaded by the lead's page). */
  lists: SuppressionLists;
}) {
  const consent = useLoad(
    async () => (await call(api.GET('/api/leads/{id}/consent', { params: { path: { id: leadId } } }))).data,
    `consent:${leadId}:${round}`,
  );
  const evidence = consent.data?.evidence ?? null;
  return (
    <section aria-label="Consent evidence">
      <h2>Consent</h2>
      <Alert>{consent.error}</Alert>
      {consent.data && (
        <>
          <p className={consent.data.matches === false ? 'badge badge-rejected' : undefined} role="status">
            {consentCheckText(consent.data.matches, consent.data.erased)}
          </p>
          {evidence && (
            <dl className="details">
              <dt>Text</dt>
              <dd>{evidence.text}</dd>
              <dt>Given</dt>
              <dd>{formatDateTime(evidence.given_at)}</dd>
              <dt>Method</dt>
              <dd>{METHODS[evidence.method] ?? evidence.method}</dd>
              <dt>Page</dt>
              <dd>{evidence.page_url}</dd>
              <dt>IP address</dt>
              <dd>{evidence.ip}</dd>
              <dt>User agent</dt>
              <dd>{evidence.user_agent}</dd>
              {evidence.certificate_url && (
                <>
                  <dt>Certificate</dt>
                  <dd>{evidence.certificate_url}</dd>
                </>
              )}
              <dt>Received</dt>
              <dd>{formatDateTime(consent.data.received_at)}</dd>
              <dt>SHA-256</dt>
              <dd>
                <code>{consent.data.sha256}</code>
              </dd>
            </dl>
          )}
          {canErase && !consent.data.erased && <ErasePanel leadId={leadId} onErased={onErased} lists={lists} />}
        </>
      )}
    </section>
  );
}

function ErasePanel({ leadId, onErased, lists }: { leadId: string; onErased: () => void; lists: SuppressionLists }) {
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [listId, setListId] = useState('');
  const options: Array<readonly [string, string]> = [
    ['', 'No suppression list'],
    ...(lists.data ?? []).map((list) => [list.id, `${list.name} (${list.kind})`] as const),
  ];
  const erase = () =>
    confirmed(
      "Erase this person's personal data from the lead, its activity, the dedup log and exports not yet downloaded? This cannot be undone.",
      async () => {
        await call(
          api.POST('/api/leads/{id}/erase', {
            params: { path: { id: leadId } },
            body: listId ? { suppress_list_id: listId } : {},
          }),
        );
        onErased();
      },
    );
  return (
    <div className="card" aria-label="Erase personal data">
      <div className="row">
        <Select
          label="Then do not contact again through"
          name="suppress_list_id"
          options={options}
          value={listId}
          onChange={(event) => setListId(event.currentTarget.value)}
        />
        <button type="button" className="danger" onClick={erase} disabled={action.pending}>
          Erase personal data
        </button>
      </div>
      <Alert>{action.error}</Alert>
    </div>
  );
}
