/**
 * The organization of the signed-in user (`getOrganization`, `updateOrganization`,
 * `deleteOrganization`; the bodies are ours, see docs/decisions.md):
 *   GET    /api/organization   200 organization
 *   PATCH  /api/organization   200 organization; body {name?, settings?: {validation?, consent_requirements?,
 *                              consent_retention_days?, review_sla_hours?, auto_decision_after_hours?,
 *                              auto_decision?}} (docs/consent.md, docs/review-queue.md)
 *   DELETE /api/organization   204 (owner only): marked deleted, users removed, API keys revoked
 */
import type { Organization } from '@leadstream/dal';
import {
  DEFAULT_CONSENT_REQUIREMENTS,
  DEFAULT_CONSENT_RETENTION_DAYS,
  DomainError,
  readOrganizationPatch,
  reviewSettingsOf,
} from '@leadstream/domain';
import { defineRoute, UserRouter } from '../auth/route-definition';
import type { AccountsContext } from './accounts.context';

export function organizationResource(organization: Organization): Record<string, unknown> {
  return {
    id: organization.id,
    name: organization.name,
    plan: organization.plan,
    // The consent settings read as their defaults until the organization sets them (docs/consent.md).
    settings: {
      ...organization.settings,
      consent_requirements: organization.settings.consent_requirements ?? DEFAULT_CONSENT_REQUIREMENTS,
      consent_retention_days: organization.settings.consent_retention_days ?? DEFAULT_CONSENT_RETENTION_DAYS,
      // docs/review-queue.md "Settings": null until set.
      ...reviewSettingsOf(organization.settings),
    },
    created_at: organization.created_at.toISOString(),
    updated_at: organization.updated_at.toISOString(),
  };
}

const notFound = (): DomainError => new DomainError('NOT_FOUND', 'Organization not found');

export function organizationRouter(context: AccountsContext): UserRouter {
  const router = new UserRouter(context.guard);
  const { organizations, apiKeys } = context.dal;

  defineRoute(router, { method: 'GET', path: '/api/organization', permission: 'organization:read' }, async (ctx) => {
    const organization = await organizations.get(ctx.state.tenant);
    if (!organization) throw notFound();
    ctx.body = { data: organizationResource(organization) };
  });

  defineRoute(router, { method: 'PATCH', path: '/api/organization', permission: 'organization:write' }, async (ctx) => {
    const current = await organizations.get(ctx.state.tenant);
    if (!current) throw notFound();
    const patch = readOrganizationPatch(
      ctx.request.body,
      current.settings.validation,
      current.settings.consent_requirements,
      current.settings,
    );
    const settings = {
      ...current.settings,
      ...(patch.validation === undefined ? {} : { validation: patch.validation }),
      ...(patch.consent_requirements === undefined ? {} : { consent_requirements: patch.consent_requirements }),
      ...(patch.consent_retention_days === undefined ? {} : { consent_retention_days: patch.consent_retention_days }),
      ...(patch.review === undefined ? {} : patch.review),
    };
    const settingsChanged =
      patch.validation !== undefined ||
      patch.consent_requirements !== undefined ||
      patch.consent_retention_days !== undefined ||
      patch.review !== undefined;
    const updated = await organizations.update(
      ctx.state.tenant,
      {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(settingsChanged ? { settings } : {}),
      },
      context.clock(),
    );
    if (!updated) throw notFound();
    await context.configCache.changed(ctx.state.tenant.organizationId, 'settings');
    ctx.body = { data: organizationResource(updated) };
  });

  defineRoute(
    router,
    { method: 'DELETE', path: '/api/organization', permission: 'organization:delete' },
    async (ctx) => {
      const { tenant } = ctx.state;
      const now = context.clock();
      // Keys first: from here on no vendor can submit. Then the record, then the people.
      await apiKeys.revokeAll(tenant.organizationId, {}, now);
      if (!(await organizations.markDeleted(tenant, now))) throw notFound();
      await context.configCache.changed(tenant.organizationId, 'organization');
      await context.users.deleteAll(tenant);
      ctx.status = 204;
    },
  );

  return router;
}
