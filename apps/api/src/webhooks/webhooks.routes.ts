/**
 * Webhooks of the user API (docs/webhooks.md):
 *   GET    /api/webhooks                                       {data:[webhook]} with the secret masked (whsec_…last4), stats, last_triggered_at
 *   POST   /api/webhooks                                       201 {data:{id,url,events,enabled,secret,created_at}}: the only answer with the full secret
 *   PATCH  /api/webhooks/:id                                   {data:{id,url,events,enabled,updated_at}}
 *   DELETE /api/webhooks/:id                                   204 (its deliveries go with it)
 *   POST   /api/webhooks/:id/test                              {success, delivered, response_status, response_time_ms, test_event_id}
 *                                                              or {success:false, delivered:false, error, response_status:null, response_time_ms}
 *   GET    /api/webhooks/:id/deliveries?page&limit             {data:[delivery], meta:{page,limit,total}}
 *   POST   /api/webhooks/:id/deliveries/:delivery_id/retry     202 {data:{id,event_id,resend_id}}: re-sent by the deliver stage
 * A webhook marked `sandbox` receives the sandbox environment's events, the others the live ones;
 * the list shows both. URLs must be https and resolve to public addresses (checked here and again
 * on every attempt) unless WEBHOOK_ALLOW_INSECURE_TARGETS is set.
 *
 * Secrets are stored encrypted (libs/runtime webhook-secrets.ts). Only owners and admins
 * (webhooks:write) create webhooks, so only they ever see a secret in full; managers read webhooks
 * with the masked form, which cannot sign anything.
 */
import { deliveryView, type WebhookDeliveryRepository, type WebhookRepository } from '@leadstream/dal';
import { DomainError, maskWebhookSecret, type ErrorDetail } from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import type { ConfigCache, CredentialsCipher, OutboundOptions } from '@leadstream/runtime';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  retryDelivery,
  testWebhook,
  updateWebhook,
  type ListedWebhook,
} from './use-cases';

export interface WebhookRoutesDependencies {
  guard: SessionGuard;
  webhooks: WebhookRepository;
  deliveries: WebhookDeliveryRepository;
  log: Pick<EventLog, 'produce'>;
  /** Told of every change of a tenant's webhooks: the notify stage keeps the enabled ones until then. */
  configCache: Pick<ConfigCache, 'changed'>;
  /** Encrypts secrets at rest and opens them to sign (the key of CRM_CREDENTIALS_KEY). */
  cipher: CredentialsCipher;
  /** WEBHOOK_ALLOW_INSECURE_TARGETS (development and tests): http and non-public addresses allowed. */
  allowInsecureTargets: boolean;
  /** The test endpoint's time limit (30 s, like a delivery attempt). */
  timeoutMs: number;
  /** Name resolution for the public-address check (tests pass their own). */
  resolve?: OutboundOptions['resolve'];
  clock?: () => Date;
}

/** A webhook as GET /api/webhooks shows it: the secret masked (whsec_…last4). */
function webhookListItem({ webhook, secret, stats, lastTriggeredAt }: ListedWebhook): Record<string, unknown> {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    enabled: webhook.enabled,
    description: webhook.description,
    sandbox: webhook.environment === 'sandbox',
    secret: maskWebhookSecret(secret),
    created_at: webhook.created_at,
    updated_at: webhook.updated_at,
    last_triggered_at: lastTriggeredAt,
    disabled_at: webhook.disabled_at,
    disabled_reason: webhook.disabled_reason,
    stats,
  };
}

function positiveInteger(value: unknown, name: string, fallback: number, max: number, details: ErrorDetail[]): number {
  if (value === undefined || value === '') return fallback;
  const first: unknown = Array.isArray(value) ? value[0] : value;
  const text = typeof first === 'string' ? first : '';
  if (!/^\d{1,7}$/.test(text) || Number(text) < 1 || Number(text) > max) {
    details.push({ field: name, message: `${name} must be a whole number from 1 to ${max}` });
    return fallback;
  }
  return Number(text);
}

export function webhooksRouter(deps: WebhookRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const outbound = {
    allowInsecureTargets: deps.allowInsecureTargets,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  };
  const useCaseDeps = {
    webhooks: deps.webhooks,
    deliveries: deps.deliveries,
    log: deps.log,
    cipher: deps.cipher,
    outbound,
    timeoutMs: deps.timeoutMs,
    clock,
  };

  defineRoute(
    router,
    { method: 'GET', path: '/api/webhooks', permission: 'webhooks:read', rateLimit: 'list_webhooks' },
    async (ctx) => {
      ctx.body = { data: (await listWebhooks(useCaseDeps, { tenant: ctx.state.tenant })).map(webhookListItem) };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/webhooks', permission: 'webhooks:write', rateLimit: 'create_webhook' },
    async (ctx) => {
      const { webhook, secret } = await createWebhook(useCaseDeps, {
        tenant: ctx.state.tenant,
        body: ctx.request.body,
      });
      await deps.configCache.changed(ctx.state.tenant.organizationId, 'webhooks');
      ctx.status = 201;
      ctx.body = {
        data: {
          id: webhook.id,
          url: webhook.url,
          events: webhook.events,
          enabled: webhook.enabled,
          secret,
          created_at: webhook.created_at,
        },
      };
    },
  );

  defineRoute(
    router,
    { method: 'PATCH', path: '/api/webhooks/:id', permission: 'webhooks:write', rateLimit: 'update_webhook' },
    async (ctx) => {
      const updated = await updateWebhook(useCaseDeps, {
        tenant: ctx.state.tenant,
        webhookId: String(ctx.params['id']),
        body: ctx.request.body,
      });
      await deps.configCache.changed(ctx.state.tenant.organizationId, 'webhooks');
      ctx.body = {
        data: {
          id: updated.id,
          url: updated.url,
          events: updated.events,
          enabled: updated.enabled,
          updated_at: updated.updated_at,
        },
      };
    },
  );

  defineRoute(
    router,
    { method: 'DELETE', path: '/api/webhooks/:id', permission: 'webhooks:write', rateLimit: 'update_webhook' },
    async (ctx) => {
      await deleteWebhook(useCaseDeps, { tenant: ctx.state.tenant, webhookId: String(ctx.params['id']) });
      await deps.configCache.changed(ctx.state.tenant.organizationId, 'webhooks');
      ctx.status = 204;
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/webhooks/:id/test', permission: 'webhooks:write', rateLimit: 'test_webhook' },
    async (ctx) => {
      const result = await testWebhook(useCaseDeps, { tenant: ctx.state.tenant, webhookId: String(ctx.params['id']) });
      ctx.body = result.delivered
        ? {
            success: true,
            delivered: true,
            response_status: result.responseStatus,
            response_time_ms: result.responseTimeMs,
            test_event_id: result.testEventId,
          }
        : {
            success: false,
            delivered: false,
            error: result.error,
            response_status: null,
            response_time_ms: result.responseTimeMs,
          };
    },
  );

  defineRoute(
    router,
    {
      method: 'GET',
      path: '/api/webhooks/:id/deliveries',
      permission: 'webhooks:read',
      rateLimit: 'get_webhook_deliveries',
    },
    async (ctx) => {
      const details: ErrorDetail[] = [];
      const page = positiveInteger(ctx.query['page'], 'page', 1, 1_000_000, details);
      const limit = positiveInteger(ctx.query['limit'], 'limit', 20, 100, details);
      if (details.length > 0) throw new DomainError('VALIDATION_ERROR', 'Invalid query parameters', details);
      const { items, total } = await listWebhookDeliveries(useCaseDeps, {
        tenant: ctx.state.tenant,
        webhookId: String(ctx.params['id']),
        page,
        limit,
      });
      ctx.body = { data: items.map(deliveryView), meta: { page, limit, total } };
    },
  );

  defineRoute(
    router,
    {
      method: 'POST',
      path: '/api/webhooks/:id/deliveries/:delivery_id/retry',
      permission: 'webhooks:write',
      rateLimit: 'update_webhook',
    },
    async (ctx) => {
      const retried = await retryDelivery(useCaseDeps, {
        tenant: ctx.state.tenant,
        webhookId: String(ctx.params['id']),
        deliveryId: String(ctx.params['delivery_id']),
      });
      ctx.status = 202;
      ctx.body = { data: { id: retried.deliveryId, event_id: retried.eventId, resend_id: retried.resendId } };
    },
  );

  return router;
}
