/**
 * What an organization's plan allows it to keep (docs/enrichment-rules.md "Plan limits", the
 * numbers and their reasons in docs/decisions.md "Plan limits"). The plan already sets the funnel
 * rate limit (docs/api-conventions.md "Rate limits"); it also bounds the configuration every lead runs through, because each
 * enrichment rule, routing rule, validation rule, calculated field and lookup row is evaluated or
 * held for every lead of the organization, in every stage process and in the API's rule tester.
 *
 * A request that would take the organization past a limit is refused whole with 422
 * PLAN_LIMIT_REACHED; nothing of it is stored.
 */
import { DomainError, type ErrorDetail } from '../errors';

export const PLANS = ['education', 'enterprise'] as const;
export type PlanName = (typeof PLANS)[number];

/** What is counted per organization. */
export const PLAN_COUNTED_RESOURCES = [
  'enrichment_rules',
  'routing_rules',
  'validation_rules',
  'calculated_fields',
  'lookup_tables',
] as const;
export type PlanCountedResource = (typeof PLAN_COUNTED_RESOURCES)[number];

export interface PlanLimits extends Readonly<Record<PlanCountedResource, number>> {
  /** Mappings (rows) of one lookup table. */
  readonly lookup_table_rows: number;
}

export const PLAN_LIMITS: Readonly<Record<PlanName, PlanLimits>> = {
  education: {
    enrichment_rules: 300,
    routing_rules: 200,
    validation_rules: 200,
    calculated_fields: 100,
    lookup_tables: 20,
    lookup_table_rows: 5_000,
  },
  enterprise: {
    enrichment_rules: 1_000,
    routing_rules: 1_000,
    validation_rules: 1_000,
    calculated_fields: 500,
    lookup_tables: 100,
    lookup_table_rows: 10_000,
  },
};

/** How messages name each resource. */
const NOUNS: Readonly<Record<PlanCountedResource, string>> = {
  enrichment_rules: 'enrichment rules',
  routing_rules: 'routing rules',
  validation_rules: 'validation rules',
  calculated_fields: 'calculated fields',
  lookup_tables: 'lookup tables',
};

/** The plan an organization record names; a plan this code does not know gets the smallest one's limits. */
export function planOf(plan: string | null | undefined): PlanName {
  return (PLANS as readonly string[]).includes(plan ?? '') ? (plan as PlanName) : 'education';
}

export interface PlanCount {
  plan: PlanName;
  resource: PlanCountedResource;
  /** What the organization has now. */
  current: number;
  /** What the request would add. */
  adding: number;
}

/**
 * The refusal when `adding` more would take the organization past its plan's limit, else null.
 * The detail is on the resource and reads alone: the limit, the plan, the count and the addition.
 */
export function planCountProblem({ plan, resource, current, adding }: PlanCount): DomainError | null {
  const limit = PLAN_LIMITS[plan][resource];
  if (current + adding <= limit) return null;
  const detail: ErrorDetail = {
    field: resource,
    message: `${resource} may number at most ${limit} on the ${plan} plan: the organization has ${current} and this request adds ${adding}`,
  };
  return new DomainError(
    'PLAN_LIMIT_REACHED',
    `Plan limit reached: the ${plan} plan allows at most ${limit} ${NOUNS[resource]} per organization`,
    [detail],
  );
}

/** The refusal when a lookup table would hold more mappings than the plan allows in one table, else null. */
export function lookupRowsProblem(plan: PlanName, rows: number, field = 'mappings'): DomainError | null {
  const limit = PLAN_LIMITS[plan].lookup_table_rows;
  if (rows <= limit) return null;
  return new DomainError(
    'PLAN_LIMIT_REACHED',
    `Plan limit reached: the ${plan} plan allows at most ${limit} mappings per lookup table`,
    [
      {
        field,
        message: `${field} may hold at most ${limit} keys per table on the ${plan} plan: this table would have ${rows}`,
      },
    ],
  );
}
