import { DomainError } from '@leadstream/domain';
import { describe, expect, it } from 'vitest';
import { listReviewQueue } from './list-review-queue';

const tenant = { organizationId: 'org_1', environment: 'live' as const };
// The query is refused before the queue is read: a queue that throws shows it was not.
const unread = new Proxy({} as Parameters<typeof listReviewQueue>[0]['queue'], {
  get: () => () => {
    throw new Error('the queue must not be read for an invalid query');
  },
});
const deps = { queue: unread, clock: () => new Date('2026-11-27T12:00:00Z') };

async function refusal(query: Record<string, unknown>): Promise<DomainError> {
  const error = await listReviewQueue(deps, { tenant, query }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('listReviewQueue query checks', () => {
  it('refuses a parameter given twice instead of ignoring it (Schemathesis sent sortOrder=null&sortOrder=null)', async () => {
    const error = await refusal({ sortOrder: ['null', 'null'] });
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'sortOrder', message: 'sortOrder must be given once' }]);
  });

  it('names an unknown parameter and a bad sort order', async () => {
    const error = await refusal({ sort: 'age', sortOrder: 'sideways' });
    expect(error.details).toEqual([
      { field: 'sort', message: 'sort is not a known parameter' },
      { field: 'sortOrder', message: 'sortOrder must be asc or desc' },
    ]);
  });
});
