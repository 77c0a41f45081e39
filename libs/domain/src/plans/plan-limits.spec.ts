import { describe, expect, it } from 'vitest';
import { describeDetail } from '../errors';
import { lookupRowsProblem, PLAN_LIMITS, planCountProblem, planOf } from './plan-limits';

describe('plan limits', () => {
  it('lets an organization reach its limit, and refuses one more naming the limit, the plan, the count and the addition', () => {
    expect(planCountProblem({ plan: 'education', resource: 'enrichment_rules', current: 299, adding: 1 })).toBeNull();
    const refused = planCountProblem({ plan: 'education', resource: 'enrichment_rules', current: 250, adding: 51 });
    expect(refused).toMatchObject({
      code: 'PLAN_LIMIT_REACHED',
      message: 'Plan limit reached: the education plan allows at most 300 enrichment rules per organization',
      details: [
        {
          field: 'enrichment_rules',
          message:
            'enrichment_rules may number at most 300 on the education plan: the organization has 250 and this request adds 51',
        },
      ],
    });
    // The detail already names its field first: answers show it as it is.
    expect(describeDetail(refused!.details![0]!)).toEqual(refused!.details![0]);
  });

  it('allows more on the enterprise plan than on education, for every limit', () => {
    for (const [limit, value] of Object.entries(PLAN_LIMITS.education))
      expect(PLAN_LIMITS.enterprise[limit as keyof typeof PLAN_LIMITS.education], limit).toBeGreaterThan(value);
    expect(planCountProblem({ plan: 'enterprise', resource: 'enrichment_rules', current: 300, adding: 1 })).toBeNull();
  });

  it('bounds the mappings of one lookup table', () => {
    expect(lookupRowsProblem('education', 5_000)).toBeNull();
    expect(lookupRowsProblem('education', 5_001)?.details).toEqual([
      {
        field: 'mappings',
        message: 'mappings may hold at most 5000 keys per table on the education plan: this table would have 5001',
      },
    ]);
    expect(lookupRowsProblem('enterprise', 10_000)).toBeNull();
  });

  it("gives a plan it does not know the smallest plan's limits", () => {
    expect(planOf('enterprise')).toBe('enterprise');
    expect(planOf('gold')).toBe('education');
    expect(planOf(undefined)).toBe('education');
  });
});
