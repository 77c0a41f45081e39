/**
 * CRM connections and manual syncs of the user API (the payloads are ours, docs/decisions.md "CRM
 * connections and sync" and docs/crm.md):
 *   GET    /api/crm/connections              connections with settings, never credentials
 *   POST   /api/crm/connections              create (credentials encrypted at rest, AES-256-GCM)
 *   PATCH  /api/crm/connections/:id          change name, enabled, settings or credentials (same id)
 *   POST   /api/crm/connections/:id/test     call the CRM without writing to it
 *   DELETE /api/crm/connections/:id          remove (its pending syncs fail at their next attempt)
 *   POST   /api/crm/:id/sync/:leadId         sync one lead again now: 202, the crm-sync stage does it
 *
 * Connection URLs must be https and resolve to public addresses (checked when saved and again on
 * every call) unless WEBHOOK_ALLOW_INSECURE_TARGETS is set.
 *
 * Owners and admins only (crm:read, crm:write). The user API works on live data, so a sandbox
 * lead is never found here: no CRM sync ever happens in the sandbox.
 */
import type { CrmConnectionRepository, CrmSyncRepository, LeadRepository } from '@leadstream/dal';
import { crmConnectionView } from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import type { ConfigCache, CredentialsCipher, CrmClient, OutboundOptions } from '@leadstream/runtime';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import {
  createCrmConnection,
  deleteCrmConnection,
  listCrmConnections,
  requestCrmSync,
  testCrmConnection,
  updateCrmConnection,
} from './use-cases';

export interface CrmRoutesDependencies {
  guard: SessionGuard;
  connections: Pick<CrmConnectionRepository, 'insert' | 'list' | 'findById' | 'update' | 'delete'>;
  syncs: Pick<CrmSyncRepository, 'findById' | 'connectionStats'>;
  leads: Pick<LeadRepository, 'findById'>;
  log: Pick<EventLog, 'produce'>;
  /**
   * Told of every change of a tenant's connections: the route stage caches which are enabled
   * (its all-connections fallback) until then.
   */
  configCache: Pick<ConfigCache, 'changed'>;
  cipher: CredentialsCipher;
  client: Pick<CrmClient, 'test'>;
  /** WEBHOOK_ALLOW_INSECURE_TARGETS (development and tests): connections may target http and non-public addresses. */
  allowInsecureTargets: boolean;
  /** Name resolution for the public-address check of connection URLs (tests pass their own). */
  resolve?: OutboundOptions['resolve'];
  clock?: () => Date;
}

export function crmRouter(deps: CrmRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const outbound = {
    allowInsecureTargets: deps.allowInsecureTargets,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  };
  const useCaseDeps = {
    connections: deps.connections,
    syncs: deps.syncs,
    leads: deps.leads,
    log: deps.log,
    cipher: deps.cipher,
    client: deps.client,
    outbound,
    clock,
  };

  defineRoute(router, { method: 'GET', path: '/api/crm/connections', permission: 'crm:read' }, async (ctx) => {
    const connections = await listCrmConnections(useCaseDeps, { tenant: ctx.state.tenant });
    ctx.body = { data: connections.map(({ record, stats }) => crmConnectionView(record, stats)) };
  });

  defineRoute(router, { method: 'POST', path: '/api/crm/connections', permission: 'crm:write' }, async (ctx) => {
    const record = await createCrmConnection(useCaseDeps, { tenant: ctx.state.tenant, body: ctx.request.body });
    await deps.configCache.changed(ctx.state.tenant.organizationId, 'crm_connections');
    ctx.status = 201;
    ctx.body = { data: crmConnectionView(record, { synced: 0, failed: 0, last_sync_at: null }) };
  });

  defineRoute(router, { method: 'PATCH', path: '/api/crm/connections/:id', permission: 'crm:write' }, async (ctx) => {
    const { record, stats } = await updateCrmConnection(useCaseDeps, {
      tenant: ctx.state.tenant,
      connectionId: String(ctx.params['id']),
      body: ctx.request.body,
    });
    await deps.configCache.changed(ctx.state.tenant.organizationId, 'crm_connections');
    ctx.body = { data: crmConnectionView(record, stats) };
  });

  defineRoute(
    router,
    { method: 'POST', path: '/api/crm/connections/:id/test', permission: 'crm:write' },
    async (ctx) => {
      const result = await testCrmConnection(useCaseDeps, {
        tenant: ctx.state.tenant,
        connectionId: String(ctx.params['id']),
      });
      // 200 either way, like a webhook test (`testWebhook`): the body says what the CRM answered.
      ctx.body = result.success
        ? { success: true, response_status: result.responseStatus, response_time_ms: result.timeMs }
        : {
            success: false,
            error: result.error ?? 'failed',
            response_status: result.responseStatus,
            response_time_ms: result.timeMs,
          };
    },
  );

  defineRoute(router, { method: 'DELETE', path: '/api/crm/connections/:id', permission: 'crm:write' }, async (ctx) => {
    await deleteCrmConnection(useCaseDeps, { tenant: ctx.state.tenant, connectionId: String(ctx.params['id']) });
    await deps.configCache.changed(ctx.state.tenant.organizationId, 'crm_connections');
    ctx.status = 204;
  });

  defineRoute(router, { method: 'POST', path: '/api/crm/:id/sync/:leadId', permission: 'crm:write' }, async (ctx) => {
    const requested = await requestCrmSync(useCaseDeps, {
      tenant: ctx.state.tenant,
      actor: { id: ctx.state.user.id },
      connectionId: String(ctx.params['id']),
      leadId: String(ctx.params['leadId']),
    });
    // 202: the crm-sync stage makes the call (with its retries); GET /api/leads/:id shows the result.
    ctx.status = 202;
    ctx.body = {
      data: {
        id: requested.syncId,
        lead_id: requested.leadId,
        connection_id: requested.connectionId,
        status: 'pending',
        requested_at: requested.requestedAt,
        previous_status: requested.previous?.status ?? null,
        crm_id: requested.previous?.crm_id ?? null,
      },
    };
  });

  return router;
}
