/**
 * Custom field definitions (docs/decisions.md "Leads API", custom fields):
 *   GET    /api/enrichment/custom-fields       {data:[definition]}            (rules:read)
 *   POST   /api/enrichment/custom-fields       201 {data:{id,name,label,type,created_at}} (rules:write)
 *   PATCH  /api/enrichment/custom-fields/:id   200 {data: definition}         (rules:write)
 *   DELETE /api/enrichment/custom-fields/:id   204                            (rules:write)
 * Validation patterns are compiled with RE2 on the way in, so an invalid one is a 400 here and
 * never a surprise at ingestion. A second field of the same name is a 400 on `name`.
 */
import { randomUUID } from 'node:crypto';
import { CustomFieldNameTakenError, type CustomFieldRepository } from '@leadstream/dal';
import { DomainError, parseCustomFieldCreate, parseCustomFieldUpdate } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';

export interface CustomFieldRoutesDependencies {
  guard: SessionGuard;
  customFields: CustomFieldRepository;
  /** Every write is announced, so the next lead is validated with it. */
  configCache: Pick<ConfigCache, 'changed'>;
  clock?: () => Date;
}

const notFound = (): DomainError => new DomainError('NOT_FOUND', 'Custom field not found');

export function customFieldsRouter(deps: CustomFieldRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);

  defineRoute(
    router,
    { method: 'GET', path: '/api/enrichment/custom-fields', permission: 'rules:read' },
    async (ctx) => {
      ctx.body = { data: await deps.customFields.listFields(ctx.state.tenant.organizationId) };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/enrichment/custom-fields', permission: 'rules:write' },
    async (ctx) => {
      const parsed = parseCustomFieldCreate(ctx.request.body);
      if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Invalid custom field', parsed.details);
      const at = clock().toISOString();
      const id = `cf_${randomUUID().replace(/-/g, '')}`;
      try {
        await deps.customFields.create({
          _id: id,
          organization_id: ctx.state.tenant.organizationId,
          ...parsed.value,
          created_at: at,
          updated_at: at,
        });
      } catch (error) {
        if (error instanceof CustomFieldNameTakenError) {
          throw new DomainError('ALREADY_EXISTS', 'A custom field with this name already exists', [
            { field: 'name', message: `a custom field named ${parsed.value.name} already exists` },
          ]);
        }
        throw error;
      }
      await deps.configCache.changed(ctx.state.tenant.organizationId, 'custom_fields');
      ctx.status = 201;
      ctx.body = {
        data: { id, name: parsed.value.name, label: parsed.value.label, type: parsed.value.type, created_at: at },
      };
    },
  );

  defineRoute(
    router,
    { method: 'PATCH', path: '/api/enrichment/custom-fields/:id', permission: 'rules:write' },
    async (ctx) => {
      const organizationId = ctx.state.tenant.organizationId;
      const id = String(ctx.params['id']);
      const current = await deps.customFields.find(organizationId, id);
      if (!current) throw notFound();
      const parsed = parseCustomFieldUpdate(ctx.request.body, current);
      if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Invalid custom field', parsed.details);
      const updated = await deps.customFields.update(organizationId, id, parsed.value, clock().toISOString());
      if (!updated) throw notFound();
      await deps.configCache.changed(organizationId, 'custom_fields');
      ctx.body = { data: updated };
    },
  );

  defineRoute(
    router,
    { method: 'DELETE', path: '/api/enrichment/custom-fields/:id', permission: 'rules:write' },
    async (ctx) => {
      if (!(await deps.customFields.delete(ctx.state.tenant.organizationId, String(ctx.params['id']))))
        throw notFound();
      await deps.configCache.changed(ctx.state.tenant.organizationId, 'custom_fields');
      ctx.status = 204;
    },
  );

  return router;
}
