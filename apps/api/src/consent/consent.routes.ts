/**
 * Consent evidence and erasure (docs/consent.md):
 *   GET  /api/leads/:id/consent   the lead's consent evidence, its SHA-256 and the tamper check (leads:read)
 *   POST /api/leads/:id/erase     erase the person's data, leaving a tombstone (leads:erase: owner, admin)
 * A deleted lead's evidence stays readable for the organization's `consent_retention_days`.
 */
import { ErasureRepository, LeadQueryRepository, SuppressionRepository, type Dal } from '@leadstream/dal';
import {
  consentMatches,
  consentRecordOf,
  consentRetainedUntil,
  DEFAULT_CONSENT_RETENTION_DAYS,
  DomainError,
  type TenantContext,
} from '@leadstream/domain';
import type { DocumentStore, EventLog, ExportFileStore } from '@leadstream/ports';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import { eraseLead } from './erase-lead';

export interface ConsentRoutesDependencies {
  guard: SessionGuard;
  store: DocumentStore;
  /** Organization settings (consent_retention_days), through the configuration cache. */
  organizations: Pick<Dal['organizations'], 'get'>;
  log: EventLog;
  exportFiles?: ExportFileStore;
  logger: Logger;
  clock?: () => Date;
}

const notFound = (): DomainError => new DomainError('LEAD_NOT_FOUND', 'Lead not found');

function readTenant(tenant: TenantContext, environment: unknown): TenantContext {
  if (environment === undefined || environment === '' || environment === 'live') return tenant;
  if (environment === 'sandbox') return { ...tenant, environment: 'sandbox' };
  throw new DomainError('VALIDATION_ERROR', 'Invalid query parameters', [
    { field: 'environment', message: 'environment must be live or sandbox' },
  ]);
}

export function consentRouter(deps: ConsentRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const erasure = new ErasureRepository(deps.store);
  const eraseDeps = {
    erasure,
    queries: new LeadQueryRepository(deps.store),
    log: deps.log,
    suppression: new SuppressionRepository(deps.store),
    ...(deps.exportFiles ? { exportFiles: deps.exportFiles } : {}),
    logger: deps.logger,
    clock,
  };

  defineRoute(
    router,
    { method: 'GET', path: '/api/leads/:id/consent', permission: 'leads:read', rateLimit: 'get_lead' },
    async (ctx) => {
      const tenant = readTenant(ctx.state.tenant, ctx.query['environment']);
      const lead = await erasure.findAny(tenant, String(ctx.params['id']));
      if (!lead) throw notFound();
      if (lead.deleted_at !== null) {
        // A deleted lead keeps its evidence for the organization's retention, then it is gone.
        const organization = await deps.organizations.get(tenant);
        const days = organization?.settings.consent_retention_days ?? DEFAULT_CONSENT_RETENTION_DAYS;
        const until = consentRetainedUntil(lead.deleted_at, days);
        if (until && until.getTime() <= clock().getTime()) throw notFound();
      }
      const record = consentRecordOf(lead);
      ctx.body = {
        data: {
          lead_id: lead._id,
          evidence: record?.evidence ?? null,
          canonical_json: record?.canonical_json ?? null,
          sha256: record?.sha256 ?? null,
          received_at: record?.received_at ?? null,
          matches: record ? consentMatches(record) : null,
          erased: typeof lead['erased_at'] === 'string',
          lead_deleted_at: lead.deleted_at,
        },
      };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/leads/:id/erase', permission: 'leads:erase', rateLimit: 'update_lead' },
    async (ctx) => {
      const result = await eraseLead(
        eraseDeps,
        ctx.state.tenant,
        String(ctx.params['id']),
        ctx.request.body as unknown,
        ctx.state.user.id,
      );
      ctx.body = { data: result };
    },
  );

  return router;
}

export function mountConsent(app: Koa, deps: ConsentRoutesDependencies): void {
  const router = consentRouter(deps);
  app.use(router.routes());
  app.use(router.allowedMethods());
}
