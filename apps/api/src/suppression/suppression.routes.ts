/**
 * Suppression lists of the user API (docs/suppression-lists.md):
 *   GET    /api/suppression-lists?page&limit                  {data:[list], meta}
 *   POST   /api/suppression-lists                             201 {data:list}
 *   GET    /api/suppression-lists/:id                         {data:list}
 *   PATCH  /api/suppression-lists/:id                         {data:list}
 *   DELETE /api/suppression-lists/:id                         204 (its entries go with it)
 *   POST   /api/suppression-lists/:id/entries                 {values, hashed?} → {data:{list_id, added, entry_count}}
 *   DELETE /api/suppression-lists/:id/entries                 {values, hashed?} → {data:{list_id, removed, entry_count}}
 *   GET    /api/suppression-lists/:id/entries/check?value=    {data:{suppressed, added_at, expires_at}}
 *   POST   /api/suppression-lists/:id/entries/import          text/csv body → 202 {data:job}
 *   GET    /api/suppression-lists/:id/entries/import/:job_id  {data:job}
 *   POST   /api/leads/:id/suppress                            {list_id} → {data:{list_id, added, entry_count}}
 * Owners and admins write (suppression:write), managers and viewers read (suppression:read). The
 * import takes a non-JSON body, so its router is mounted before the JSON body parser (api.app.ts).
 */
import type { LeadQueryRepository, SuppressionImport, SuppressionRepository } from '@leadstream/dal';
import { DomainError, type ErrorDetail, type SuppressionList } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import type { Logger } from 'pino';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import {
  addSuppressionEntries,
  checkSuppressionValue,
  createSuppressionList,
  deleteSuppressionList,
  findSuppressionList,
  getSuppressionImport,
  invalidSuppression,
  listSuppressionLists,
  removeSuppressionEntries,
  startSuppressionImport,
  suppressLead,
  updateSuppressionList,
} from './use-cases';

/** The longest value a check takes (an email address's limit; the OpenAPI operation says so). */
const MAX_CHECK_VALUE_LENGTH = 320;
export interface SuppressionRoutesDependencies {
  guard: SessionGuard;
  suppression: SuppressionRepository;
  leads: Pick<LeadQueryRepository, 'findVisible'>;
  configCache: Pick<ConfigCache, 'changed'>;
  logger: Pick<Logger, 'error' | 'info'>;
  clock?: () => Date;
}

const listView = (list: SuppressionList): Record<string, unknown> => ({
  id: list.id,
  name: list.name,
  kind: list.kind,
  action: list.action,
  expires_after_days: list.expires_after_days,
  sandbox_only: list.sandbox_only,
  enabled: list.enabled,
  entry_count: list.entry_count,
  created_at: list.created_at,
  updated_at: list.updated_at,
});

const importView = (job: SuppressionImport): Record<string, unknown> => ({
  id: job.id,
  list_id: job.list_id,
  status: job.status,
  rows: job.rows,
  added: job.added,
  invalid: job.invalid,
  error: job.error,
  created_at: job.created_at,
  finished_at: job.finished_at,
  status_url: `/api/suppression-lists/${job.list_id}/entries/import/${job.id}`,
});

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

function hashedQuery(value: unknown): boolean {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === '' || first === 'false') return false;
  if (first === 'true') return true;
  throw invalidSuppression([{ field: 'hashed', message: 'hashed must be true or false' }]);
}

/** Largest JSON body of a DELETE (10,000 values). */
const DELETE_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * The JSON body of a DELETE, which the body parser leaves unread (it parses POST, PUT and PATCH):
 * read here with the same type check and a size limit.
 */
async function deleteBody(ctx: {
  is(types: string[]): string | false | null;
  req: AsyncIterable<Buffer>;
}): Promise<unknown> {
  if (!ctx.is(['application/json', 'application/*+json']))
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += chunk.length;
    if (size > DELETE_BODY_LIMIT) throw new DomainError('PAYLOAD_TOO_LARGE', 'The request body is too large');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw invalidSuppression([{ field: 'body', message: 'body must be JSON' }]);
  }
}

/** The routes with JSON bodies (or none). */
export function suppressionRouter(deps: SuppressionRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const useCaseDeps = { suppression: deps.suppression, configCache: deps.configCache, clock };

  defineRoute(
    router,
    { method: 'GET', path: '/api/suppression-lists', permission: 'suppression:read' },
    async (ctx) => {
      const details: ErrorDetail[] = [];
      const page = positiveInteger(ctx.query['page'], 'page', 1, 1_000_000, details);
      const limit = positiveInteger(ctx.query['limit'], 'limit', 20, 100, details);
      if (details.length > 0) throw invalidSuppression(details);
      const { lists, total } = await listSuppressionLists(useCaseDeps, ctx.state.tenant, page, limit);
      ctx.body = { data: lists.map(listView), meta: { page, limit, total, totalPages: Math.ceil(total / limit) } };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/suppression-lists', permission: 'suppression:write' },
    async (ctx) => {
      const list = await createSuppressionList(useCaseDeps, ctx.state.tenant, ctx.request.body);
      ctx.status = 201;
      ctx.body = { data: listView(list) };
    },
  );

  defineRoute(
    router,
    { method: 'GET', path: '/api/suppression-lists/:id', permission: 'suppression:read' },
    async (ctx) => {
      ctx.body = { data: listView(await findSuppressionList(useCaseDeps, ctx.state.tenant, String(ctx.params['id']))) };
    },
  );

  defineRoute(
    router,
    { method: 'PATCH', path: '/api/suppression-lists/:id', permission: 'suppression:write' },
    async (ctx) => {
      ctx.body = {
        data: listView(
          await updateSuppressionList(useCaseDeps, ctx.state.tenant, String(ctx.params['id']), ctx.request.body),
        ),
      };
    },
  );

  defineRoute(
    router,
    { method: 'DELETE', path: '/api/suppression-lists/:id', permission: 'suppression:write' },
    async (ctx) => {
      await deleteSuppressionList(useCaseDeps, ctx.state.tenant, String(ctx.params['id']));
      ctx.status = 204;
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/suppression-lists/:id/entries', permission: 'suppression:write' },
    async (ctx) => {
      const change = await addSuppressionEntries(
        useCaseDeps,
        ctx.state.tenant,
        String(ctx.params['id']),
        ctx.request.body,
      );
      ctx.body = { data: { list_id: change.list_id, added: change.count, entry_count: change.entry_count } };
    },
  );

  defineRoute(
    router,
    { method: 'DELETE', path: '/api/suppression-lists/:id/entries', permission: 'suppression:write' },
    async (ctx) => {
      const change = await removeSuppressionEntries(
        useCaseDeps,
        ctx.state.tenant,
        String(ctx.params['id']),
        await deleteBody(ctx),
      );
      ctx.body = { data: { list_id: change.list_id, removed: change.count, entry_count: change.entry_count } };
    },
  );

  defineRoute(
    router,
    { method: 'GET', path: '/api/suppression-lists/:id/entries/check', permission: 'suppression:read' },
    async (ctx) => {
      const value: unknown = ctx.query['value'];
      if (typeof value !== 'string' || value === '')
        throw invalidSuppression([{ field: 'value', message: 'value is required, once' }]);
      if (value.length > MAX_CHECK_VALUE_LENGTH)
        throw invalidSuppression([
          { field: 'value', message: `value must be at most ${MAX_CHECK_VALUE_LENGTH} characters` },
        ]);
      ctx.body = {
        data: await checkSuppressionValue(
          useCaseDeps,
          ctx.state.tenant,
          String(ctx.params['id']),
          value,
          hashedQuery(ctx.query['hashed']),
        ),
      };
    },
  );

  defineRoute(
    router,
    { method: 'GET', path: '/api/suppression-lists/:id/entries/import/:job_id', permission: 'suppression:read' },
    async (ctx) => {
      const job = await getSuppressionImport(
        useCaseDeps,
        ctx.state.tenant,
        String(ctx.params['id']),
        String(ctx.params['job_id']),
      );
      ctx.body = { data: importView(job) };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/leads/:id/suppress', permission: 'suppression:write' },
    async (ctx) => {
      const change = await suppressLead(
        { ...useCaseDeps, leads: deps.leads },
        ctx.state.tenant,
        String(ctx.params['id']),
        ctx.request.body,
      );
      ctx.body = { data: { list_id: change.list_id, added: change.count, entry_count: change.entry_count } };
    },
  );

  return router;
}

const CSV_TYPES = ['text/csv', 'text/plain', 'application/octet-stream'];

/** The CSV import, which reads its own (non-JSON) body as a stream. */
export function suppressionImportRouter(deps: SuppressionRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  defineRoute(
    router,
    { method: 'POST', path: '/api/suppression-lists/:id/entries/import', permission: 'suppression:write' },
    async (ctx) => {
      if (!ctx.is(CSV_TYPES))
        throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be a CSV file (text/csv)');
      const job = await startSuppressionImport(
        { suppression: deps.suppression, clock, logger: deps.logger },
        ctx.state.tenant,
        String(ctx.params['id']),
        ctx.req,
        hashedQuery(ctx.query['hashed']),
      );
      ctx.status = 202;
      ctx.body = { data: importView(job) };
    },
  );
  return router;
}
