/**
 * Plan limits on an organization's configuration (libs/domain/src/plans; docs/enrichment-rules.md
 * "Plan limits"): the routes that add enrichment rules, routing rules, validation rules,
 * calculated fields and lookup tables, or replace a lookup table's mappings, ask here first.
 *
 * The plan is read from the organization's record on every such write (writes of configuration
 * are rare; an operator's plan change applies to the next one). Count and write of one
 * organization's resource run one at a time in this process, so two concurrent requests cannot
 * both take the last place; api processes on Kafka + MongoDB do not share that queue, so a burst
 * spread over several of them can pass the limit by at most one record per process.
 */
import type { OrganizationRepository } from '@leadstream/dal';
import {
  lookupRowsProblem,
  planCountProblem,
  planOf,
  type PlanCountedResource,
  type PlanName,
  type TenantContext,
} from '@leadstream/domain';

export interface PlanLimitGate {
  /** The organization's plan (the smallest when the record names none this code knows). */
  plan(tenant: TenantContext): Promise<PlanName>;
  /**
   * Runs `write` when `adding` more of `resource` fit the organization's plan; otherwise throws
   * 422 PLAN_LIMIT_REACHED and writes nothing.
   */
  admit<T>(
    tenant: TenantContext,
    resource: PlanCountedResource,
    adding: number,
    count: () => Promise<number>,
    write: () => Promise<T>,
  ): Promise<T>;
  /** Throws 422 PLAN_LIMIT_REACHED when one lookup table would hold more mappings than the plan allows. */
  checkLookupRows(tenant: TenantContext, rows: number): Promise<void>;
}

export function planLimitGate(organizations: Pick<OrganizationRepository, 'get'>): PlanLimitGate {
  const queues = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier work of `key` has settled. */
  async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = queues.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.catch(() => undefined);
    queues.set(key, settled);
    try {
      return await run;
    } finally {
      if (queues.get(key) === settled) queues.delete(key);
    }
  }

  async function plan(tenant: TenantContext): Promise<PlanName> {
    return planOf((await organizations.get(tenant))?.plan);
  }

  return {
    plan,
    async admit(tenant, resource, adding, count, write) {
      return oneAtATime(`${tenant.organizationId}/${resource}`, async () => {
        const [name, current] = await Promise.all([plan(tenant), count()]);
        const refused = planCountProblem({ plan: name, resource, current, adding });
        if (refused) throw refused;
        return write();
      });
    },
    async checkLookupRows(tenant, rows) {
      const refused = lookupRowsProblem(await plan(tenant), rows);
      if (refused) throw refused;
    },
  };
}
