/**
 * Every user-API route declares who may call it (docs/permissions.md: the matrix is enforced at
 * the route). Routers register through `defineRoute`, which puts the guard first in the route's
 * middleware and tags it with the declared access. `listRoutes(app)` reads the tags back from the
 * mounted routers, and a test fails for any user-API route without one, including routes that
 * someone adds later with a plain `router.get(...)`.
 */
import Router from '@koa/router';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { RateLimitScope } from '@leadstream/domain';
import type { RouteAccess, SessionGuard, UserSessionState } from './session.middleware';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  /** A permission of the matrix, `authenticated` (any signed-in user) or `public` (no token). */
  permission: RouteAccess;
  /** A rate-limit scope (docs/api-conventions.md "Rate limits") the route counts against in addition to the general API limit (which every route counts against). */
  rateLimit?: RateLimitScope;
}

const ACCESS = Symbol.for('leadstream.routeAccess');

type TaggedMiddleware = Middleware & { [ACCESS]?: RouteAccess };

/** A router whose routes are guarded by one SessionGuard. */
export class UserRouter extends Router<UserSessionState> {
  constructor(readonly guard: SessionGuard) {
    super();
  }
}

function tag<T extends Middleware>(middleware: T, access: RouteAccess): T {
  Object.defineProperty(middleware, ACCESS, { value: access, enumerable: false });
  return middleware;
}

/** Registers a route with its guard (or, for `public`, a tagged pass-through) in front. */
export function defineRoute(
  router: UserRouter,
  definition: RouteDefinition,
  ...handlers: Array<Middleware<UserSessionState>>
): void {
  const guard: Middleware<UserSessionState> =
    definition.permission === 'public'
      ? tag(async (_ctx, next) => next(), 'public')
      : tag(router.guard.requireUser(definition.permission, definition.rateLimit), definition.permission);
  router.register(definition.path, [definition.method], [guard, ...handlers] as Middleware[]);
}

export interface RegisteredRoute {
  methods: string[];
  path: string;
  /** Undefined when the route was registered without defineRoute. */
  access: RouteAccess | undefined;
}

/** Every route of every router mounted on the app with `app.use(router.routes())`. */
export function listRoutes(app: Koa): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  for (const middleware of app.middleware) {
    const router = (middleware as { router?: Router }).router;
    if (!router) continue;
    for (const layer of router.stack) {
      if (layer.methods.length === 0) continue; // router.use(...) middleware, not a route
      const first = layer.stack[0] as TaggedMiddleware | undefined;
      routes.push({
        methods: layer.methods.filter((method) => method !== 'HEAD'),
        path: String(layer.path),
        access: first?.[ACCESS],
      });
    }
  }
  return routes;
}
