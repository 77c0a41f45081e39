/**
 * A lead's CRM side on its detail page: the sync fields (crm_sync_status, crm_id, crm_synced_at),
 * its route (which rule or default, and the targets) and, for crm:write, "Sync to CRM" per
 * connection (POST /api/crm/:id/sync/:leadId answers 202: the crm-sync stage makes the call).
 * A stage that will never run says why in words (a duplicate links to the lead it duplicates).
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Schemas } from '@leadstream/client';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { useAction, useLoad } from '../components/use-load';
import { Alert, StatusBadge, formatDateTime } from '../components/ui';
import { stageEndText, whyNotRouted, whyNotSynced, type StageEnd } from './lead-text';
import { destinationText, routeText } from './routing-text';

/** "<prefix>: <why>", a duplicate's original as a link to its page. */
export function StageEndText({ prefix, end }: { prefix: string; end: StageEnd }) {
  if (end.kind === 'duplicate') {
    return (
      <>
        {prefix}: duplicate of <Link to={`/leads/${encodeURIComponent(end.of)}`}>{end.of}</Link>
      </>
    );
  }
  return (
    <>
      {prefix}: {stageEndText(end)}
    </>
  );
}

export function LeadCrmPanel({
  lead,
  sandbox,
  ruleName,
  onQueued,
}: {
  lead: Schemas['Lead'];
  sandbox: boolean;
  ruleName: string | null;
  onQueued: () => void;
}) {
  const role = currentSession()?.user.role;
  const connections = useLoad(
    async () => (can(role, 'crm:read') ? (await call(api.GET('/api/crm/connections'))).data : undefined),
    'crm',
  );
  const action = useAction();
  const [queued, setQueued] = useState<string | null>(null);
  const sync = (connection: Schemas['CrmConnection']) =>
    void action.run(async () => {
      setQueued(null);
      const answer = await call(
        api.POST('/api/crm/{id}/sync/{leadId}', { params: { path: { id: connection.id, leadId: lead.id } } }),
      );
      setQueued(
        `Sync to “${connection.name}” queued (${answer.data.status}, requested ${formatDateTime(answer.data.requested_at)}).`,
      );
      onQueued();
    });
  const route = lead.routing;
  const notSynced = whyNotSynced(lead, sandbox);
  const notRouted = whyNotRouted(lead);
  return (
    <section aria-labelledby="lead-crm">
      <h2 id="lead-crm">CRM and routing</h2>
      <dl className="details" data-testid="lead-crm">
        <div>
          <dt>CRM sync</dt>
          <dd>
            {notSynced ? (
              <StageEndText prefix="Not synced" end={notSynced} />
            ) : (
              <StatusBadge status={lead.crm_sync_status} />
            )}
          </dd>
        </div>
        <div>
          <dt>CRM record id</dt>
          <dd>{lead.crm_id ?? '—'}</dd>
        </div>
        <div>
          <dt>Synced</dt>
          <dd>{formatDateTime(lead.crm_synced_at)}</dd>
        </div>
        <div>
          <dt>Route</dt>
          <dd data-testid="lead-route">
            {route ? (
              <>
                {routeText(route.reason, ruleName)}, {formatDateTime(route.routed_at)}
                {route.targets.map((target, index) => (
                  <div key={index}>
                    → <bdi>{destinationText(target, connections.data)}</bdi>
                  </div>
                ))}
              </>
            ) : notRouted ? (
              <StageEndText prefix="Not routed" end={notRouted} />
            ) : (
              'Not routed yet'
            )}
          </dd>
        </div>
      </dl>
      {can(role, 'crm:write') && !sandbox && !lead.deleted_at && connections.data && connections.data.length > 0 && (
        <div className="row" role="group" aria-label="Sync to CRM">
          {connections.data.map((connection) => (
            <button
              type="button"
              key={connection.id}
              onClick={() => sync(connection)}
              disabled={action.pending || !connection.enabled}
            >
              Sync to <bdi>{connection.name}</bdi>
            </button>
          ))}
        </div>
      )}
      <Alert>{action.error}</Alert>
      <Alert tone="success">{queued}</Alert>
    </section>
  );
}
