import { LeadQueryRepository, SuppressionRepository } from '@leadstream/dal';
import type { DocumentStore } from '@leadstream/ports';
import type Koa from 'koa';
import type { SuppressionRoutesDependencies } from './suppression.routes';
import { suppressionImportRouter, suppressionRouter } from './suppression.routes';

export { suppressionImportRouter, suppressionRouter, type SuppressionRoutesDependencies } from './suppression.routes';

/** The path whose body the CSV import reads itself (see requireJsonBody's `streamPaths`). */
export const SUPPRESSION_STREAM_PATHS: readonly RegExp[] = [/^\/api\/suppression-lists\/[^/]+\/entries\/import$/];

export function mountSuppression(
  app: Koa,
  deps: Omit<SuppressionRoutesDependencies, 'suppression' | 'leads'> & { store: DocumentStore },
): void {
  const routes = {
    ...deps,
    suppression: new SuppressionRepository(deps.store),
    leads: new LeadQueryRepository(deps.store),
  };
  for (const router of [suppressionImportRouter(routes), suppressionRouter(routes)]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
}
