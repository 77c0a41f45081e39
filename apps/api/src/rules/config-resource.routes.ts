/**
 * The five routes of an organization's configuration resource whose bodies are ours
 * (lookup tables, calculated fields, validation rules), one way for all of them:
 *   GET    <path>        {data:[record]}
 *   POST   <path>        201 {data: record}
 *   GET    <path>/:id    {data: record}
 *   PATCH  <path>/:id    {data: record}      any subset of the settings
 *   DELETE <path>/:id    204
 * Bodies are parsed by the domain (400 VALIDATION_ERROR with a detail per problem), a taken
 * unique name is a 400 on that field, a creation past the organization's plan limit is a 422
 * PLAN_LIMIT_REACHED (plan-limit-gate.ts), and every write is announced through the ConfigCache.
 */
import { randomUUID } from 'node:crypto';
import { ConfigNameTakenError, type ConfigResource, type OrganizationConfigRepository } from '@leadstream/dal';
import { DomainError, type ErrorDetail, type PlanCountedResource, type TenantContext } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { defineRoute, type UserRouter } from '../auth';
import type { PlanLimitGate } from './plan-limit-gate';

export type SettingsParse<Settings> = { ok: true; value: Settings } | { ok: false; details: ErrorDetail[] };

export interface ConfigResourceDefinition<Settings extends object> {
  path: string;
  /** Singular name for messages, e.g. "Lookup table". */
  label: string;
  idPrefix: string;
  /** The `what` of config.changed. */
  what: string;
  repository: OrganizationConfigRepository<Settings>;
  /** The settings field a unique index covers, for the 400 detail. */
  uniqueField?: keyof Settings & string;
  parseCreate(body: unknown, organizationId: string): Promise<SettingsParse<Settings>> | SettingsParse<Settings>;
  parsePatch(
    body: unknown,
    current: ConfigResource<Settings>,
    organizationId: string,
  ): Promise<SettingsParse<Settings>> | SettingsParse<Settings>;
  /** How many records of this resource the organization's plan allows (counted on creation). */
  planLimit?: { gate: PlanLimitGate; resource: PlanCountedResource };
  /**
   * Plan limits inside one record (a lookup table's mappings), checked on creation and on a PATCH
   * after parsing; `body` is the request's, to tell which settings it sends.
   */
  checkPlan?(settings: Settings, tenant: TenantContext, body: Record<string, unknown>): Promise<void>;
  /** After a write, e.g. a recalculation; gets the record as stored and the one it replaced (null on creation). */
  afterWrite?(
    record: ConfigResource<Settings>,
    previous: ConfigResource<Settings> | null,
    organizationId: string,
  ): Promise<void>;
  configCache: Pick<ConfigCache, 'changed'>;
  clock: () => Date;
}

export function newConfigId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '')}`;
}

export function defineConfigResource<Settings extends object>(
  router: UserRouter,
  resource: ConfigResourceDefinition<Settings>,
): void {
  const notFound = () => new DomainError('NOT_FOUND', `${resource.label} not found`);
  const invalid = (details: ErrorDetail[]) =>
    new DomainError('VALIDATION_ERROR', `Invalid ${resource.label.toLowerCase()}`, details);
  const nameTaken = (error: unknown) =>
    error instanceof ConfigNameTakenError && resource.uniqueField
      ? new DomainError('ALREADY_EXISTS', `A ${resource.label.toLowerCase()} with this name already exists`, [
          {
            field: resource.uniqueField,
            message: `a ${resource.label.toLowerCase()} named ${error.value} already exists`,
          },
        ])
      : error;

  defineRoute(router, { method: 'GET', path: resource.path, permission: 'rules:read' }, async (ctx) => {
    ctx.body = { data: await resource.repository.list(ctx.state.tenant.organizationId) };
  });

  defineRoute(router, { method: 'POST', path: resource.path, permission: 'rules:write' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    const parsed = await resource.parseCreate(ctx.request.body, organizationId);
    if (!parsed.ok) throw invalid(parsed.details);
    await resource.checkPlan?.(parsed.value, ctx.state.tenant, ctx.request.body as Record<string, unknown>);
    const create = () =>
      resource.repository.create(
        organizationId,
        newConfigId(resource.idPrefix),
        parsed.value,
        resource.clock().toISOString(),
      );
    const limit = resource.planLimit;
    let record: ConfigResource<Settings>;
    try {
      record = limit
        ? await limit.gate.admit(
            ctx.state.tenant,
            limit.resource,
            1,
            () => resource.repository.count(organizationId),
            create,
          )
        : await create();
    } catch (error) {
      throw nameTaken(error);
    }
    await resource.configCache.changed(organizationId, resource.what);
    await resource.afterWrite?.(record, null, organizationId);
    ctx.status = 201;
    ctx.body = { data: record };
  });

  defineRoute(router, { method: 'GET', path: `${resource.path}/:id`, permission: 'rules:read' }, async (ctx) => {
    const record = await resource.repository.find(ctx.state.tenant.organizationId, String(ctx.params['id']));
    if (!record) throw notFound();
    ctx.body = { data: record };
  });

  defineRoute(router, { method: 'PATCH', path: `${resource.path}/:id`, permission: 'rules:write' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    const id = String(ctx.params['id']);
    const current = await resource.repository.find(organizationId, id);
    if (!current) throw notFound();
    const parsed = await resource.parsePatch(ctx.request.body, current, organizationId);
    if (!parsed.ok) throw invalid(parsed.details);
    await resource.checkPlan?.(parsed.value, ctx.state.tenant, ctx.request.body as Record<string, unknown>);
    let updated: ConfigResource<Settings> | null;
    try {
      updated = await resource.repository.update(organizationId, id, parsed.value, resource.clock().toISOString());
    } catch (error) {
      throw nameTaken(error);
    }
    if (!updated) throw notFound();
    await resource.configCache.changed(organizationId, resource.what);
    await resource.afterWrite?.(updated, current, organizationId);
    ctx.body = { data: updated };
  });

  defineRoute(router, { method: 'DELETE', path: `${resource.path}/:id`, permission: 'rules:write' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    if (!(await resource.repository.delete(organizationId, String(ctx.params['id'])))) throw notFound();
    await resource.configCache.changed(organizationId, resource.what);
    ctx.status = 204;
  });
}
