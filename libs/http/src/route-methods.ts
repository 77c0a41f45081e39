/**
 * Which methods a path takes, across every router mounted on the app, and the answers that follow
 * from it: OPTIONS lists them in Allow, and a method the path does not take is a 405 with Allow
 * (the error handler words it in the path's convention). A path that a literal route matches is
 * that route's alone: `/api/calculated-fields/jobs` takes GET, even though the pattern
 * `/api/calculated-fields/:id` would also match it with PATCH and DELETE.
 */
import type { Middleware } from 'koa';

interface MatchedLayer {
  methods: string[];
  paramNames: unknown[];
}

interface MatchingRouter {
  match(path: string, method: string): { path: MatchedLayer[] };
}

export function pathMethods(app: { middleware: unknown[] }, path: string): string[] {
  const layers: MatchedLayer[] = [];
  for (const middleware of app.middleware) {
    const router = (middleware as { router?: MatchingRouter }).router;
    if (router) layers.push(...router.match(path, 'GET').path.filter((layer) => layer.methods.length > 0));
  }
  const literal = layers.filter((layer) => layer.paramNames.length === 0);
  const methods = new Set((literal.length > 0 ? literal : layers).flatMap((layer) => layer.methods));
  return [...methods];
}

export function methodRouting(): Middleware {
  return async (ctx, next) => {
    const methods = pathMethods(ctx.app, ctx.path);
    if (methods.length === 0) return next(); // unknown path: the 404 of the error handler
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', methods.join(', '));
      ctx.status = 204;
      return;
    }
    if (!methods.includes(ctx.method)) {
      ctx.set('Allow', methods.join(', '));
      ctx.status = 405;
      return;
    }
    return next();
  };
}
