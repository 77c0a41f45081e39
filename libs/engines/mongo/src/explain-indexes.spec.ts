import { describe, expect, it } from 'vitest';
import { indexNamesFromExplain } from './explain-indexes';
import { duplicateIndexName } from './mongo-errors';

describe('indexNamesFromExplain', () => {
  it('reads IXSCAN stages of a MongoDB winning plan', () => {
    const explain = {
      queryPlanner: {
        winningPlan: {
          stage: 'LIMIT',
          inputStage: { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'status_created' } },
        },
        rejectedPlans: [{ stage: 'IXSCAN', indexName: 'not_this' }],
      },
    };
    expect(indexNamesFromExplain(explain)).toEqual(['status_created']);
  });

  it('reads an SBE queryPlan and an _id lookup', () => {
    expect(
      indexNamesFromExplain({
        queryPlanner: {
          winningPlan: {
            queryPlan: {
              stage: 'OR',
              inputStages: [
                { stage: 'IXSCAN', indexName: 'a_1' },
                { stage: 'IXSCAN', indexName: 'b_1' },
              ],
            },
          },
        },
      }),
    ).toEqual(['a_1', 'b_1']);
    expect(indexNamesFromExplain({ queryPlanner: { winningPlan: { stage: 'IDHACK' } } })).toEqual(['_id_']);
  });

  it("reads FerretDB's SQLite plan lines, and a collection scan names nothing", () => {
    expect(
      indexNamesFromExplain({
        queryPlanner: {
          Plan: [
            'id=2 parent=0 notused=0 detail=SEARCH leads_1a2b3c4d USING INDEX leads_1a2b3c4d_status_created (<expr>=?)',
          ],
        },
      }),
    ).toEqual(['status_created']);
    expect(
      indexNamesFromExplain({ queryPlanner: { Plan: ['id=2 parent=0 notused=0 detail=SCAN t_f10c3da3'] } }),
    ).toEqual([]);
    expect(indexNamesFromExplain({ queryPlanner: { winningPlan: { stage: 'COLLSCAN' } } })).toEqual([]);
  });
});

describe('duplicateIndexName', () => {
  it('reads the index from MongoDB and FerretDB messages', () => {
    expect(
      duplicateIndexName('E11000 duplicate key error collection: db.leads index: org_email dup key: { org: "o" }'),
    ).toBe('org_email');
    expect(
      duplicateIndexName("constraint failed: UNIQUE constraint failed: index 'run_x_unique_f10c3da3_org_email' (2067)"),
    ).toBe('org_email');
    expect(
      duplicateIndexName(
        'ERROR: duplicate key value violates unique constraint "coll_x_addc9090_org_email_514d4ede_idx" (SQLSTATE 23505)',
      ),
    ).toBe('org_email');
    expect(duplicateIndexName('E11000 duplicate key error collection: db.leads')).toBeNull();
  });
});
