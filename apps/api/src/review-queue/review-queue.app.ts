/** Mounts the review queue router of the user API (docs/review-queue.md). */
import type { DocumentStore, EventLog } from '@leadstream/ports';
import type Koa from 'koa';
import type { SessionGuard } from '../auth';
import { ReviewQueueRepository } from './review-queue.repository';
import { reviewQueueRouter } from './review-queue.routes';

export interface ReviewQueueMountDependencies {
  guard: SessionGuard;
  store: DocumentStore;
  log: Pick<EventLog, 'produce'>;
  clock?: () => Date;
}

export function mountReviewQueue(app: Koa, deps: ReviewQueueMountDependencies): void {
  const router = reviewQueueRouter({
    guard: deps.guard,
    queue: new ReviewQueueRepository(deps.store),
    log: deps.log,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
}
