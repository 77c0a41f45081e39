import type Koa from 'koa';
import type { AccountsContext } from './accounts.context';
import { apiKeysRouter } from './api-keys.routes';
import { authRouter } from './auth.routes';
import { organizationRouter } from './organization.routes';
import { usersRouter } from './users.routes';
import { vendorsRouter } from './vendors.routes';

/** Mounts the accounts routers (auth, organization, users, vendors, API keys) on the app. */
export function mountAccounts(app: Koa, context: AccountsContext): void {
  for (const router of [
    authRouter(context),
    organizationRouter(context),
    usersRouter(context),
    vendorsRouter(context),
    apiKeysRouter(context),
  ]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
}
