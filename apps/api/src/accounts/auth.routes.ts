/**
 * Account authentication (operations tagged Authentication in the OpenAPI document):
 *   POST /api/auth/register          201 {token, user}
 *   POST /api/auth/login             200 {token, user, expires_at}
 *   POST /api/auth/forgot-password   200 {message}, whether or not the email is known
 *   POST /api/auth/reset-password    200 {message}; bad, expired or used token: 400 INVALID_RESET_TOKEN;
 *                                    every session issued before it ends
 *   POST /api/auth/change-password   200 {message, token, expires_at}; a wrong current password is 400
 *                                    VALIDATION_ERROR on current_password; every session issued before it
 *                                    ends (this one too), and the answer carries a new one for this client
 *   POST /api/auth/refresh           200 {token, expires_at}; the presented token is revoked, and of
 *                                    concurrent refreshes of one token only one succeeds (the others 401)
 *   POST /api/auth/logout            204; the presented token is revoked
 *   POST /api/auth/accept-invite     200 {token, user, expires_at}
 *
 * Rate limits (10 per minute, docs/api-conventions.md "Rate limits"): every endpoint per client
 * address; forgot-password also per email; login also per email and client address, and per email
 * from all addresses with a much higher backstop (./login-limits.ts), so wrong passwords from one
 * address cannot lock the owner out.
 */
import {
  emailKey,
  readAcceptInvite,
  readChangePassword,
  readForgotPassword,
  readLogin,
  readRegistration,
  readResetPassword,
  toPublicUser,
} from '@leadstream/domain';
import type { Middleware } from 'koa';
import { rateLimit } from '../auth/rate-limit.middleware';
import { defineRoute, UserRouter } from '../auth/route-definition';
import type { UserSessionState } from '../auth/session.middleware';
import { accountLink, type AccountsContext } from './accounts.context';
import { loginAttemptLimits } from './login-limits';
import {
  acceptInvite,
  changePassword,
  logIn,
  logOut,
  refreshSession,
  registerAccount,
  requestPasswordReset,
  resetPassword,
} from './use-cases';

const FORGOT_PASSWORD_MESSAGE = 'If an account exists for this email, a password reset link has been sent.';

export function authRouter(context: AccountsContext): UserRouter {
  const router = new UserRouter(context.guard);
  const { clock } = context;
  const limitOptions = { clock };
  const useCaseDeps = {
    users: context.users,
    organizations: context.dal.organizations,
    accountTokens: context.accountTokens,
    sessions: context.sessions,
    tokens: context.tokens,
    mailer: context.mailer,
    resetLink: (token: string) => accountLink(context, 'reset-password', token),
    clock,
  };

  /** Per client address, one counter per endpoint. */
  const perAddress = (endpoint: string): Middleware<UserSessionState> =>
    rateLimit<UserSessionState>(
      'authentication',
      context.dal.rateLimiter,
      (ctx) => ({ subject: `${endpoint}:ip:${ctx.ip}`, limit: context.authRateLimit }),
      limitOptions,
    );
  /** Per account: the email of the body, whatever its form (the body is checked after). Forgot-password only. */
  const perEmail = (endpoint: string): Middleware<UserSessionState> =>
    rateLimit<UserSessionState>(
      'authentication',
      context.dal.rateLimiter,
      (ctx) => {
        const raw = (ctx.request.body as { email?: unknown } | undefined)?.email;
        return {
          subject: `${endpoint}:email:${typeof raw === 'string' ? emailKey(raw).slice(0, 254) : ''}`,
          limit: context.authRateLimit,
        };
      },
      limitOptions,
    );

  defineRoute(
    router,
    { method: 'POST', path: '/api/auth/register', permission: 'public' },
    perAddress('register'),
    async (ctx) => {
      const { user, session } = await registerAccount(useCaseDeps, readRegistration(ctx.request.body));
      ctx.status = 201;
      ctx.body = { token: session.token, user: toPublicUser(user) };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/auth/login', permission: 'public' },
    perAddress('login'),
    ...loginAttemptLimits<UserSessionState>(context),
    async (ctx) => {
      const { user, session } = await logIn(useCaseDeps, readLogin(ctx.request.body));
      ctx.body = { token: session.token, user: toPublicUser(user), expires_at: session.expires_at };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/auth/forgot-password', permission: 'public' },
    perAddress('forgot-password'),
    perEmail('forgot-password'),
    async (ctx) => {
      const { email } = readForgotPassword(ctx.request.body);
      // The work for a known email happens after the answer, so its timing does not tell either.
      void requestPasswordReset(useCaseDeps, { email }).catch((error: unknown) =>
        context.logger.error({ err: error }, 'could not send a password reset mail'),
      );
      ctx.body = { message: FORGOT_PASSWORD_MESSAGE };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/auth/reset-password', permission: 'public' },
    perAddress('reset-password'),
    async (ctx) => {
      // The body is checked before the token is used, so a weak password does not burn the link.
      await resetPassword(useCaseDeps, readResetPassword(ctx.request.body));
      ctx.body = { message: 'Password has been reset. Sign in with the new password.' };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/auth/accept-invite', permission: 'public' },
    perAddress('accept-invite'),
    async (ctx) => {
      const { user, session } = await acceptInvite(useCaseDeps, readAcceptInvite(ctx.request.body));
      ctx.body = { token: session.token, user: toPublicUser(user), expires_at: session.expires_at };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/auth/change-password', permission: 'authenticated' },
    perAddress('change-password'),
    async (ctx) => {
      const input = readChangePassword(ctx.request.body);
      const session = await changePassword(useCaseDeps, { tenant: ctx.state.tenant, actor: ctx.state.user, ...input });
      ctx.body = {
        message: 'Password changed. Other sessions have been signed out.',
        token: session.token,
        expires_at: session.expires_at,
      };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/auth/refresh', permission: 'authenticated' },
    perAddress('refresh'),
    async (ctx) => {
      const next = await refreshSession(useCaseDeps, { actor: ctx.state.user, session: ctx.state.session });
      ctx.body = { token: next.token, expires_at: next.expires_at };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/auth/logout', permission: 'authenticated' },
    perAddress('logout'),
    async (ctx) => {
      await logOut(useCaseDeps, { actor: ctx.state.user, session: ctx.state.session });
      ctx.status = 204;
    },
  );

  return router;
}
