/**
 * Vendors: the lead sources of an organization (operations tagged Vendors; payloads are ours):
 *   GET    /api/vendors               200 {data:[vendor]}
 *   POST   /api/vendors               201 vendor; body {name, type: inquiry|application, group?, contact_email?, cost_per_lead?, enabled?}
 *   GET    /api/vendors/:id           200 vendor
 *   PUT    /api/vendors/:id           200 vendor; the same body as POST (a replacement)
 *   DELETE /api/vendors/:id           204; the vendor's API keys are revoked
 *   POST   /api/vendors/:id/enable    200 vendor; emits vendor.enabled when it was disabled
 *   POST   /api/vendors/:id/disable   200 vendor; emits vendor.disabled when it was enabled
 * Vendor: {id (UUID), name, type, enabled, group, contact_email, cost_per_lead, created_at, updated_at}. The keys
 * of a disabled vendor get 403 INSUFFICIENT_PERMISSIONS 'Vendor is disabled' (api-key.middleware).
 */
import type { Vendor } from '@leadstream/dal';
import { DomainError, readVendor, type TenantContext } from '@leadstream/domain';
import { newId, TOPICS } from '@leadstream/runtime';
import { parseLeadEvent, type LeadEventMessage } from '@leadstream/schemas';
import { defineRoute, UserRouter } from '../auth/route-definition';
import type { AccountsContext } from './accounts.context';

export const LEAD_EVENTS_TOPIC = TOPICS.events;

export function vendorResource(vendor: Vendor): Record<string, unknown> {
  return {
    id: vendor.id,
    name: vendor.name,
    type: vendor.type,
    enabled: vendor.enabled,
    group: vendor.group,
    contact_email: vendor.contact_email,
    cost_per_lead: vendor.cost_per_lead,
    created_at: vendor.created_at.toISOString(),
    updated_at: vendor.updated_at.toISOString(),
  };
}

const notFound = (): DomainError => new DomainError('NOT_FOUND', 'Vendor not found');

/** The envelope of schemas/messages/lead-event.schema.json, checked before it is produced. */
export function vendorEvent(tenant: TenantContext, vendor: Vendor, at: Date): LeadEventMessage {
  return parseLeadEvent({
    schema_version: 1,
    id: newId('evt'),
    event: vendor.enabled ? 'vendor.enabled' : 'vendor.disabled',
    timestamp: at.toISOString(),
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    data: { vendor: { id: vendor.id, name: vendor.name, type: vendor.type, enabled: vendor.enabled } },
  });
}

export function vendorsRouter(context: AccountsContext): UserRouter {
  const router = new UserRouter(context.guard);
  const { vendors, apiKeys } = context.dal;
  const id = (params: Record<string, string | undefined>): string => params['id'] ?? '';

  /**
   * Enables or disables a vendor with its vendor.enabled/disabled event in the same write (the
   * vendor's outbox), then produces it; a crash in between leaves it for the OutboxSweeper. Only a
   * change is an event. Returns the changed vendor, or null when nothing changed.
   */
  const setEnabled = async (
    tenant: TenantContext,
    vendorId: string,
    enabled: boolean,
    now: Date,
  ): Promise<Vendor | null> => {
    const changed = await vendors.setEnabled(tenant, vendorId, enabled, now, (next) => [
      { topic: LEAD_EVENTS_TOPIC, key: next.id, value: JSON.stringify(vendorEvent(tenant, next, now)) },
    ]);
    if (!changed) return null;
    await context.log.produce(
      LEAD_EVENTS_TOPIC,
      changed.outbox.map(({ key, value }) => ({ key, value })),
    );
    if (changed.outboxAt) await vendors.clearOutbox(tenant, changed.vendor.id, changed.outboxAt);
    return changed.vendor;
  };

  defineRoute(router, { method: 'GET', path: '/api/vendors', permission: 'vendors:read' }, async (ctx) => {
    ctx.body = { data: (await vendors.list(ctx.state.tenant)).map(vendorResource) };
  });

  defineRoute(router, { method: 'POST', path: '/api/vendors', permission: 'vendors:write' }, async (ctx) => {
    const input = readVendor(ctx.request.body);
    const vendor = await vendors.create(ctx.state.tenant, input, context.clock());
    await context.configCache.changed(ctx.state.tenant.organizationId, 'vendors');
    ctx.status = 201;
    ctx.body = { data: vendorResource(vendor) };
  });

  defineRoute(router, { method: 'GET', path: '/api/vendors/:id', permission: 'vendors:read' }, async (ctx) => {
    const vendor = await vendors.findById(ctx.state.tenant, id(ctx.params));
    if (!vendor) throw notFound();
    ctx.body = { data: vendorResource(vendor) };
  });

  defineRoute(router, { method: 'PUT', path: '/api/vendors/:id', permission: 'vendors:write' }, async (ctx) => {
    const before = await vendors.findById(ctx.state.tenant, id(ctx.params));
    if (!before) throw notFound();
    const { enabled, ...fields } = readVendor(ctx.request.body);
    const now = context.clock();
    let vendor = await vendors.update(ctx.state.tenant, before.id, fields, now);
    if (!vendor) throw notFound();
    // A change of `enabled` goes the way of enable/disable: with its event in the same write.
    if (enabled !== undefined) vendor = (await setEnabled(ctx.state.tenant, vendor.id, enabled, now)) ?? vendor;
    await context.configCache.changed(ctx.state.tenant.organizationId, 'vendors');
    ctx.body = { data: vendorResource(vendor) };
  });

  defineRoute(router, { method: 'DELETE', path: '/api/vendors/:id', permission: 'vendors:write' }, async (ctx) => {
    const vendor = await vendors.findById(ctx.state.tenant, id(ctx.params));
    if (!vendor) throw notFound();
    // Its keys would be refused anyway (unknown vendor); revoking says so in the key list too.
    await apiKeys.revokeAll(ctx.state.tenant.organizationId, { vendorId: vendor.id }, context.clock());
    await vendors.delete(ctx.state.tenant, vendor.id);
    await context.configCache.changed(ctx.state.tenant.organizationId, 'vendors');
    ctx.status = 204;
  });

  for (const action of ['enable', 'disable'] as const) {
    defineRoute(
      router,
      { method: 'POST', path: `/api/vendors/:id/${action}`, permission: 'vendors:write' },
      async (ctx) => {
        const changed = await setEnabled(ctx.state.tenant, id(ctx.params), action === 'enable', context.clock());
        if (changed) await context.configCache.changed(ctx.state.tenant.organizationId, 'vendors');
        const vendor = changed ?? (await vendors.findById(ctx.state.tenant, id(ctx.params)));
        if (!vendor) throw notFound();
        ctx.body = { data: vendorResource(vendor) };
      },
    );
  }

  return router;
}
