/**
 * Deduplication settings and checks of the user API (docs/decisions.md "Deduplication"):
 *   GET  /api/dedup                  the organization's configuration
 *   POST /api/dedup                  partial update, validated (weights sum to 1, window options...)
 *   POST /api/dedup/check-duplicate  would this lead be a duplicate? (no side effects)
 *   GET  /api/dedup/log              recent decisions with the fields of `DedupLogEntry`
 */
import { findDuplicate, type DedupRepository, type LeadRepository, type VendorRepository } from '@leadstream/dal';
import { DomainError, parseDedupConfigUpdate, toCheckDuplicateResult } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';

export interface DedupRoutesDependencies {
  guard: SessionGuard;
  dedup: Pick<DedupRepository, 'getConfig' | 'saveConfig' | 'recent'>;
  leads: Pick<LeadRepository, 'findDedupCandidates'>;
  vendors: Pick<VendorRepository, 'findById'>;
  /** A saved configuration is announced, so the next lead is deduplicated with it. */
  configCache: Pick<ConfigCache, 'changed'>;
  clock?: () => Date;
}

const CHECK_FIELDS = ['email', 'first_name', 'last_name', 'phone', 'vendor_id'] as const;

function checkBody(body: unknown): Record<(typeof CHECK_FIELDS)[number], string | undefined> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DomainError('VALIDATION_ERROR', 'Invalid request', [
      { field: '(body)', message: 'body must be a JSON object' },
    ]);
  }
  const details = [];
  const values: Record<string, string | undefined> = {};
  for (const [field, value] of Object.entries(body)) {
    if (!(CHECK_FIELDS as readonly string[]).includes(field))
      details.push({ field, message: `${field} is not a known field` });
    else if (value !== undefined && value !== null && typeof value !== 'string')
      details.push({ field, message: `${field} must be a string` });
    else values[field] = value ?? undefined;
  }
  if (!values['email'] && !values['phone'] && !(values['first_name'] && values['last_name'])) {
    details.push({ field: 'email', message: 'give at least an email, a phone, or first and last name' });
  }
  if (details.length > 0) throw new DomainError('VALIDATION_ERROR', 'Invalid request', details);
  return values;
}

export function dedupRouter(deps: DedupRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);

  defineRoute(router, { method: 'GET', path: '/api/dedup', permission: 'dedup:read' }, async (ctx) => {
    ctx.body = { data: await deps.dedup.getConfig(ctx.state.tenant) };
  });

  defineRoute(router, { method: 'POST', path: '/api/dedup', permission: 'dedup:write' }, async (ctx) => {
    const current = await deps.dedup.getConfig(ctx.state.tenant);
    const parsed = parseDedupConfigUpdate(ctx.request.body, current);
    if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Invalid deduplication configuration', parsed.details);
    await deps.dedup.saveConfig(ctx.state.tenant, parsed.config, clock());
    await deps.configCache.changed(ctx.state.tenant.organizationId, 'dedup');
    ctx.body = { data: parsed.config };
  });

  defineRoute(router, { method: 'POST', path: '/api/dedup/check-duplicate', permission: 'leads:read' }, async (ctx) => {
    const incoming = checkBody(ctx.request.body);
    const tenant = ctx.state.tenant;
    const now = clock();
    const config = await deps.dedup.getConfig(tenant);
    const { decision } = await findDuplicate(deps, tenant, { ...incoming, created_at: now.toISOString() }, config, now);
    ctx.body = toCheckDuplicateResult(decision);
  });

  defineRoute(router, { method: 'GET', path: '/api/dedup/log', permission: 'dedup:read' }, async (ctx) => {
    const raw = ctx.query['limit'];
    const limit = raw === undefined ? 20 : Number(raw);
    if (typeof raw !== 'undefined' && (typeof raw !== 'string' || !/^\d{1,3}$/.test(raw) || limit < 1 || limit > 100)) {
      throw new DomainError('VALIDATION_ERROR', 'Invalid query parameters', [
        { field: 'limit', message: 'limit must be an integer from 1 to 100' },
      ]);
    }
    const entries = await deps.dedup.recent(ctx.state.tenant, limit);
    ctx.body = {
      data: entries.map((entry) => ({
        lead_id: entry.lead_id,
        timestamp: entry.timestamp,
        incoming_lead: entry.incoming_lead,
        // Absent and null read the same from every store: always null in the answer.
        matched_lead_id: entry.matched_lead_id ?? null,
        match_fields: entry.match_fields,
        final_score: entry.final_score ?? null,
        threshold: entry.threshold ?? null,
        action_taken: entry.action_taken,
        reason: entry.reason ?? null,
      })),
      meta: { limit },
    };
  });

  return router;
}
