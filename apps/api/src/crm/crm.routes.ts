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
import { randomUUID } from 'node:crypto';
import type { CrmConnectionRepository, CrmSyncRepository, LeadRepository } from '@leadstream/dal';
import {
  credentialFieldsSet,
  crmConnectionView,
  crmSyncId,
  DomainError,
  parseCrmConnectionInput,
  parseCrmConnectionPatch,
  type CrmConnectionRecord,
  type CrmCredentials,
  type CrmSettings,
  type ErrorDetail,
} from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import { checkTarget, CRM_SYNC_REQUESTS_TOPIC, crmCredentialsContext, openCrmConnection, type CredentialsCipher, type CrmClient, type OutboundOptions } from '@leadstream/runtime';
import type { ParameterizedContext } from 'koa';
import { defineRoute, UserRouter, type SessionGuard, type UserSessionState } from '../auth';

/** A manual sync as it travels on crm.sync.requests (keyed by lead id). */
export interface CrmSyncRequestMessage {
  schema_version: 1;
  kind: 'manual';
  message_id: string;
  sync_id: string;
  lead_id: string;
  connection_id: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  requested_by: string;
  requested_at: string;
}

export interface CrmRoutesDependencies {
  guard: SessionGuard;
  connections: Pick<CrmConnectionRepository, 'insert' | 'list' | 'findById' | 'update' | 'delete'>;
  syncs: Pick<CrmSyncRepository, 'findById' | 'connectionStats'>;
  leads: Pick<LeadRepository, 'findById'>;
  log: Pick<EventLog, 'produce'>;
  cipher: CredentialsCipher;
  client: Pick<CrmClient, 'test'>;
  /** WEBHOOK_ALLOW_INSECURE_TARGETS (development and tests): connections may target http and non-public addresses. */
  allowInsecureTargets: boolean;
  /** Name resolution for the public-address check of connection URLs (tests pass their own). */
  resolve?: OutboundOptions['resolve'];
  clock?: () => Date;
}

const CONNECTION_ID = /^crm_[A-Za-z0-9]{1,64}$/;
const LEAD_ID = /^lead_[A-Za-z0-9]{1,64}$/;

/** The settings that name a URL leadstream calls (a record URL template is only shown as a link). */
function calledUrls(settings: CrmSettings): Array<{ field: string; url: string }> {
  if ('url' in settings) return [{ field: 'settings.url', url: settings.url }];
  if ('instance_url' in settings) return [{ field: 'settings.instance_url', url: settings.instance_url }, { field: 'settings.token_url', url: settings.token_url }];
  return [{ field: 'settings.base_url', url: settings.base_url }];
}

/** `now`, or a millisecond after `previous` when the clock has not passed it: every change gets a new updated_at. */
function laterThan(previous: string, now: Date): string {
  const floor = Date.parse(previous) + 1;
  return new Date(Math.max(now.getTime(), Number.isNaN(floor) ? 0 : floor)).toISOString();
}

export function crmRouter(deps: CrmRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const outbound = { allowInsecureTargets: deps.allowInsecureTargets, ...(deps.resolve ? { resolve: deps.resolve } : {}) };

  /**
   * Connection URLs must be https and resolve to public addresses, as webhook URLs must when saved
   * (the outbound module checks again on every call).
   */
  async function checkReachable(settings: CrmSettings): Promise<void> {
    const details: ErrorDetail[] = [];
    for (const { field, url } of calledUrls(settings)) {
      const target = await checkTarget(url, outbound);
      if (!target.ok) details.push({ field, message: `${field} ${target.error}` });
    }
    if (details.length > 0) throw new DomainError('VALIDATION_ERROR', 'Invalid CRM connection', details);
  }

  const load = async (ctx: ParameterizedContext<UserSessionState>, param: string): Promise<CrmConnectionRecord> => {
    const id = String(ctx.params[param]);
    const record = CONNECTION_ID.test(id) ? await deps.connections.findById(ctx.state.tenant, id) : null;
    if (!record) throw new DomainError('NOT_FOUND', 'CRM connection not found');
    return record;
  };

  defineRoute(router, { method: 'GET', path: '/api/crm/connections', permission: 'crm:read' }, async (ctx) => {
    const tenant = ctx.state.tenant;
    const records = await deps.connections.list(tenant);
    ctx.body = { data: await Promise.all(records.map(async (record) => crmConnectionView(record, await deps.syncs.connectionStats(tenant, record._id)))) };
  });

  defineRoute(router, { method: 'POST', path: '/api/crm/connections', permission: 'crm:write' }, async (ctx) => {
    const parsed = parseCrmConnectionInput(ctx.request.body);
    if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Invalid CRM connection', parsed.details);
    const { input } = parsed;
    await checkReachable(input.settings);
    const tenant = ctx.state.tenant;
    const id = `crm_${randomUUID().replace(/-/g, '')}`;
    const at = clock().toISOString();
    const record: CrmConnectionRecord = {
      _id: id,
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      name: input.name,
      type: input.type,
      enabled: input.enabled,
      settings_json: JSON.stringify(input.settings),
      credentials_encrypted: deps.cipher.encryptJson(input.credentials, crmCredentialsContext(tenant.organizationId, id)),
      credential_fields: credentialFieldsSet(input.credentials),
      created_at: at,
      updated_at: at,
    };
    await deps.connections.insert(record);
    ctx.status = 201;
    ctx.body = { data: crmConnectionView(record, { synced: 0, failed: 0, last_sync_at: null }) };
  });

  // Same id, so routing rules that name the connection keep working; a new updated_at (always
  // later than the one read) also starts a new cached OAuth token (the connectors key their cache
  // by id and updated_at).
  defineRoute(router, { method: 'PATCH', path: '/api/crm/connections/:id', permission: 'crm:write' }, async (ctx) => {
    const tenant = ctx.state.tenant;
    // Checked against the connection as read and written only if it is still so: a PATCH of the
    // settings racing one of the credentials cannot store a pair neither checked (the loser reads
    // the winner's write and is checked again).
    for (let attempt = 1; attempt <= 3; attempt++) {
      const record = await load(ctx, 'id');
      let credentials: CrmCredentials | null;
      try {
        credentials = openCrmConnection(record, deps.cipher).credentials;
      } catch {
        credentials = null;
      }
      const parsed = parseCrmConnectionPatch(ctx.request.body, { type: record.type, settings: JSON.parse(record.settings_json) as CrmSettings, credentials });
      if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Invalid CRM connection', parsed.details);
      const { patch } = parsed;
      if (patch.settings) await checkReachable(patch.settings);
      const updated = await deps.connections.update(tenant, record._id, record.updated_at, {
        updated_at: laterThan(record.updated_at, clock()),
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
        ...(patch.settings ? { settings_json: JSON.stringify(patch.settings) } : {}),
        ...(patch.credentials
          ? { credentials_encrypted: deps.cipher.encryptJson(patch.credentials, crmCredentialsContext(tenant.organizationId, record._id)), credential_fields: credentialFieldsSet(patch.credentials) }
          : {}),
      });
      if (updated) {
        ctx.body = { data: crmConnectionView(updated, await deps.syncs.connectionStats(tenant, updated._id)) };
        return;
      }
    }
    throw new DomainError('SERVICE_UNAVAILABLE', 'The CRM connection kept changing while this change was being saved; try again');
  });

  defineRoute(router, { method: 'POST', path: '/api/crm/connections/:id/test', permission: 'crm:write' }, async (ctx) => {
    const record = await load(ctx, 'id');
    const result = await deps.client.test(openCrmConnection(record, deps.cipher));
    // 200 either way, like a webhook test (`testWebhook`): the body says what the CRM answered.
    ctx.body = result.success
      ? { success: true, response_status: result.responseStatus, response_time_ms: result.timeMs }
      : { success: false, error: result.error ?? 'failed', response_status: result.responseStatus, response_time_ms: result.timeMs };
  });

  defineRoute(router, { method: 'DELETE', path: '/api/crm/connections/:id', permission: 'crm:write' }, async (ctx) => {
    const record = await load(ctx, 'id');
    await deps.connections.delete(ctx.state.tenant, record._id);
    ctx.status = 204;
  });

  defineRoute(router, { method: 'POST', path: '/api/crm/:id/sync/:leadId', permission: 'crm:write' }, async (ctx) => {
    const record = await load(ctx, 'id');
    const tenant = ctx.state.tenant;
    const leadId = String(ctx.params['leadId']);
    const lead = LEAD_ID.test(leadId) ? await deps.leads.findById(tenant, leadId) : null;
    if (!lead || lead.deleted_at) throw new DomainError('LEAD_NOT_FOUND', 'Lead not found');
    if (!record.enabled) throw new DomainError('VALIDATION_ERROR', 'The CRM connection is disabled', [{ field: 'id', message: 'the CRM connection is disabled' }]);
    const syncId = crmSyncId(lead._id, record._id);
    const at = clock().toISOString();
    const message: CrmSyncRequestMessage = {
      schema_version: 1,
      kind: 'manual',
      message_id: `crmreq_${randomUUID().replace(/-/g, '')}`,
      sync_id: syncId,
      lead_id: lead._id,
      connection_id: record._id,
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      requested_by: ctx.state.user.id,
      requested_at: at,
    };
    try {
      await deps.log.produce(CRM_SYNC_REQUESTS_TOPIC, [{ key: lead._id, value: JSON.stringify(message) }]);
    } catch (error) {
      throw new DomainError('SERVICE_UNAVAILABLE', `CRM syncs cannot be queued right now; try again (${error instanceof Error ? error.name : 'error'})`);
    }
    const previous = await deps.syncs.findById(tenant, syncId);
    // 202: the crm-sync stage makes the call (with its retries); GET /api/leads/:id shows the result.
    ctx.status = 202;
    ctx.body = {
      data: {
        id: syncId,
        lead_id: lead._id,
        connection_id: record._id,
        status: 'pending',
        requested_at: at,
        previous_status: previous?.status ?? null,
        crm_id: previous?.crm_id ?? null,
      },
    };
  });

  return router;
}
