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
import { randomUUID } from 'node:crypto';
import { deliveryView, type WebhookDeliveryRepository, type WebhookRepository } from '@leadstream/dal';
import {
  DomainError,
  maskWebhookSecret,
  newWebhookSecret,
  parseWebhookCreate,
  parseWebhookPatch,
  SIGNATURE_HEADER,
  signatureHeader,
  WEBHOOK_TEST_EVENT,
  webhookBody,
  type ErrorDetail,
  type TenantContext,
  type Webhook,
  type WebhookDeliveryMessage,
} from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import {
  checkTarget,
  CredentialsCipherError,
  openWebhookSecret,
  sealWebhookSecret,
  sendOutbound,
  WEBHOOK_DELIVERIES_TOPIC,
  type CredentialsCipher,
  type OutboundOptions,
} from '@leadstream/runtime';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';

export interface WebhookRoutesDependencies {
  guard: SessionGuard;
  webhooks: WebhookRepository;
  deliveries: WebhookDeliveryRepository;
  log: Pick<EventLog, 'produce'>;
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

const notFound = (): DomainError => new DomainError('NOT_FOUND', 'Webhook not found');
const invalid = (details: ErrorDetail[]): DomainError => new DomainError('VALIDATION_ERROR', 'Invalid webhook', details);

/** Both environments of the user's organization: a webhook's environment is the events it receives. */
function tenantsOf(tenant: TenantContext): TenantContext[] {
  return [
    { organizationId: tenant.organizationId, environment: 'live' },
    { organizationId: tenant.organizationId, environment: 'sandbox' },
  ];
}

const id = (prefix: string): string => `${prefix}_${randomUUID().replace(/-/g, '')}`;

const UNREADABLE_SECRET = "the webhook's signing secret does not decrypt with the configured key (CRM_CREDENTIALS_KEY changed?)";

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
  const outbound = { allowInsecureTargets: deps.allowInsecureTargets, ...(deps.resolve ? { resolve: deps.resolve } : {}) };

  async function findWebhook(tenant: TenantContext, webhookId: string): Promise<Webhook> {
    for (const candidate of tenantsOf(tenant)) {
      const webhook = await deps.webhooks.find(candidate, webhookId);
      if (webhook) return webhook;
    }
    throw notFound();
  }

  /** The URL must resolve to public addresses (a webhook must be publicly reachable). */
  async function checkReachable(url: string): Promise<void> {
    const checked = await checkTarget(url, outbound);
    if (!checked.ok) throw invalid([{ field: 'url', message: `url ${checked.error}` }]);
  }

  const tenantOfWebhook = (webhook: Webhook): TenantContext => ({ organizationId: webhook.organization_id, environment: webhook.environment });

  /** The secret to sign with, or null when it does not decrypt with this process's key. */
  function readableSecret(webhook: Webhook): string | null {
    try {
      return openWebhookSecret(deps.cipher, webhook);
    } catch (error) {
      if (error instanceof CredentialsCipherError) return null;
      throw error;
    }
  }

  defineRoute(router, { method: 'GET', path: '/api/webhooks', permission: 'webhooks:read', rateLimit: 'list_webhooks' }, async (ctx) => {
    const now = clock();
    const webhooks = (await Promise.all(tenantsOf(ctx.state.tenant).map((tenant) => deps.webhooks.list(tenant)))).flat().sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
    ctx.body = {
      data: await Promise.all(
        webhooks.map(async (webhook) => {
          const tenant = tenantOfWebhook(webhook);
          const [stats, lastTriggeredAt] = await Promise.all([deps.deliveries.stats(tenant, webhook.id, now), deps.deliveries.lastTriggeredAt(tenant, webhook.id)]);
          return {
            id: webhook.id,
            url: webhook.url,
            events: webhook.events,
            enabled: webhook.enabled,
            description: webhook.description,
            sandbox: webhook.environment === 'sandbox',
            secret: maskWebhookSecret(readableSecret(webhook)),
            created_at: webhook.created_at,
            updated_at: webhook.updated_at,
            last_triggered_at: lastTriggeredAt,
            disabled_at: webhook.disabled_at,
            disabled_reason: webhook.disabled_reason,
            stats,
          };
        }),
      ),
    };
  });

  defineRoute(router, { method: 'POST', path: '/api/webhooks', permission: 'webhooks:write', rateLimit: 'create_webhook' }, async (ctx) => {
    const parsed = parseWebhookCreate(ctx.request.body, outbound);
    if (!parsed.ok) throw invalid(parsed.details);
    await checkReachable(parsed.value.url);
    const at = clock().toISOString();
    const webhookId = id('webhook');
    const organizationId = ctx.state.tenant.organizationId;
    const secret = newWebhookSecret();
    const webhook: Webhook = {
      id: webhookId,
      organization_id: organizationId,
      environment: parsed.value.sandbox ? 'sandbox' : 'live',
      url: parsed.value.url,
      events: parsed.value.events,
      enabled: parsed.value.enabled,
      description: parsed.value.description,
      secret: sealWebhookSecret(deps.cipher, { id: webhookId, organization_id: organizationId }, secret),
      created_at: at,
      updated_at: at,
      disabled_at: null,
      disabled_reason: null,
      failure_streak_since: at,
    };
    await deps.webhooks.create(webhook);
    ctx.status = 201;
    ctx.body = { data: { id: webhook.id, url: webhook.url, events: webhook.events, enabled: webhook.enabled, secret, created_at: webhook.created_at } };
  });

  defineRoute(router, { method: 'PATCH', path: '/api/webhooks/:id', permission: 'webhooks:write', rateLimit: 'update_webhook' }, async (ctx) => {
    const current = await findWebhook(ctx.state.tenant, String(ctx.params['id']));
    const parsed = parseWebhookPatch(ctx.request.body, outbound);
    if (!parsed.ok) throw invalid(parsed.details);
    if (parsed.value.url !== undefined) await checkReachable(parsed.value.url);
    const updated = await deps.webhooks.update(tenantOfWebhook(current), current.id, parsed.value, clock().toISOString());
    if (!updated) throw notFound();
    ctx.body = { data: { id: updated.id, url: updated.url, events: updated.events, enabled: updated.enabled, updated_at: updated.updated_at } };
  });

  defineRoute(router, { method: 'DELETE', path: '/api/webhooks/:id', permission: 'webhooks:write', rateLimit: 'update_webhook' }, async (ctx) => {
    const current = await findWebhook(ctx.state.tenant, String(ctx.params['id']));
    if (!(await deps.webhooks.delete(tenantOfWebhook(current), current.id))) throw notFound();
    // Deliveries still waiting find no webhook and stop; the log goes with the webhook.
    await deps.deliveries.deleteForWebhook(tenantOfWebhook(current), current.id);
    ctx.status = 204;
  });

  defineRoute(router, { method: 'POST', path: '/api/webhooks/:id/test', permission: 'webhooks:write', rateLimit: 'test_webhook' }, async (ctx) => {
    const webhook = await findWebhook(ctx.state.tenant, String(ctx.params['id']));
    const secret = readableSecret(webhook);
    if (secret === null) {
      ctx.body = { success: false, delivered: false, error: UNREADABLE_SECRET, response_status: null, response_time_ms: 0 };
      return;
    }
    const now = clock();
    const testEventId = id('evt_test');
    const body = webhookBody({
      id: testEventId,
      event: WEBHOOK_TEST_EVENT,
      timestamp: now.toISOString(),
      organization_id: webhook.organization_id,
      data: { webhook_id: webhook.id, message: 'A test event from leadstream: answer 2xx to confirm the endpoint works.' },
    });
    const result = await sendOutbound(
      {
        url: webhook.url,
        method: 'POST',
        rawBody: body,
        headers: { [SIGNATURE_HEADER]: signatureHeader(secret, Math.floor(now.getTime() / 1000), body), 'X-Service-Event': WEBHOOK_TEST_EVENT, 'X-Service-Delivery': testEventId },
      },
      { timeoutMs: deps.timeoutMs, ...outbound },
    );
    ctx.body = result.ok
      ? { success: true, delivered: true, response_status: result.status, response_time_ms: result.timeMs, test_event_id: testEventId }
      : { success: false, delivered: false, error: result.code === 'HTTP_ERROR' ? `The endpoint answered HTTP ${result.status}` : result.error, response_status: null, response_time_ms: result.timeMs };
  });

  defineRoute(router, { method: 'GET', path: '/api/webhooks/:id/deliveries', permission: 'webhooks:read', rateLimit: 'get_webhook_deliveries' }, async (ctx) => {
    const details: ErrorDetail[] = [];
    const page = positiveInteger(ctx.query['page'], 'page', 1, 1_000_000, details);
    const limit = positiveInteger(ctx.query['limit'], 'limit', 20, 100, details);
    if (details.length > 0) throw new DomainError('VALIDATION_ERROR', 'Invalid query parameters', details);
    const webhook = await findWebhook(ctx.state.tenant, String(ctx.params['id']));
    const { items, total } = await deps.deliveries.list(tenantOfWebhook(webhook), webhook.id, page, limit);
    ctx.body = { data: items.map(deliveryView), meta: { page, limit, total } };
  });

  defineRoute(router, { method: 'POST', path: '/api/webhooks/:id/deliveries/:delivery_id/retry', permission: 'webhooks:write', rateLimit: 'update_webhook' }, async (ctx) => {
    const webhook = await findWebhook(ctx.state.tenant, String(ctx.params['id']));
    const tenant = tenantOfWebhook(webhook);
    const delivery = await deps.deliveries.find(tenant, webhook.id, String(ctx.params['delivery_id']));
    if (!delivery) throw new DomainError('NOT_FOUND', 'Webhook delivery not found');
    const resendId = id('rsd');
    const message: WebhookDeliveryMessage = { schema_version: 1, delivery_id: delivery._id, webhook_id: webhook.id, organization_id: webhook.organization_id, environment: webhook.environment, kind: 'resend', resend_id: resendId };
    await deps.log.produce(WEBHOOK_DELIVERIES_TOPIC, [{ key: webhook.id, value: JSON.stringify(message) }]);
    ctx.status = 202;
    ctx.body = { data: { id: delivery._id, event_id: delivery.event_id, resend_id: resendId } };
  });

  return router;
}
