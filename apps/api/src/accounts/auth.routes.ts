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
  DomainError,
  dummyPasswordHash,
  emailKey,
  hashPassword,
  readAcceptInvite,
  readChangePassword,
  readForgotPassword,
  readLogin,
  readRegistration,
  readResetPassword,
  toPublicUser,
  verifyPassword,
  type User,
} from '@leadstream/domain';
import { DuplicateKeyError } from '@leadstream/ports';
import type { Middleware } from 'koa';
import { rateLimit } from '../auth/rate-limit.middleware';
import { defineRoute, UserRouter } from '../auth/route-definition';
import type { UserSessionState } from '../auth/session.middleware';
import { accountLink, sessionBody, type AccountsContext } from './accounts.context';
import { loginAttemptLimits } from './login-limits';

const FORGOT_PASSWORD_MESSAGE = 'If an account exists for this email, a password reset link has been sent.';

export function authRouter(context: AccountsContext): UserRouter {
  const router = new UserRouter(context.guard);
  const { users, accountTokens, sessions, clock } = context;
  const limitOptions = { clock };

  /** Per client address, one counter per endpoint. */
  const perAddress = (endpoint: string): Middleware<UserSessionState> =>
    rateLimit<UserSessionState>('authentication', context.dal.rateLimiter, (ctx) => ({ subject: `${endpoint}:ip:${ctx.ip}`, limit: context.authRateLimit }), limitOptions);
  /** Per account: the email of the body, whatever its form (the body is checked after). Forgot-password only. */
  const perEmail = (endpoint: string): Middleware<UserSessionState> =>
    rateLimit<UserSessionState>(
      'authentication',
      context.dal.rateLimiter,
      (ctx) => {
        const raw = (ctx.request.body as { email?: unknown } | undefined)?.email;
        return { subject: `${endpoint}:email:${typeof raw === 'string' ? emailKey(raw).slice(0, 254) : ''}`, limit: context.authRateLimit };
      },
      limitOptions,
    );

  const emailTaken = (): DomainError => new DomainError('EMAIL_ALREADY_REGISTERED', 'An account with this email already exists');

  defineRoute(router, { method: 'POST', path: '/api/auth/register', permission: 'public' }, perAddress('register'), async (ctx) => {
    const input = readRegistration(ctx.request.body);
    if (await users.findByEmail(input.email)) throw emailTaken();
    const passwordHash = await hashPassword(input.password);
    const now = clock();
    const organization = await context.dal.organizations.create({ name: input.organization_name }, now);
    const tenant = { organizationId: organization.id, environment: 'live' as const };
    let user: User;
    try {
      user = await users.create(tenant, { email: input.email, first_name: input.first_name, last_name: input.last_name, role: 'owner', status: 'active', password_hash: passwordHash }, now);
    } catch (error) {
      // Lost a race for the email: the organization made for it must not linger.
      await context.dal.organizations.markDeleted(tenant, now);
      if (error instanceof DuplicateKeyError) throw emailTaken();
      throw error;
    }
    const session = await sessionBody(context, user);
    ctx.status = 201;
    ctx.body = { token: session.token, user: toPublicUser(user) };
  });

  defineRoute(router, { method: 'POST', path: '/api/auth/login', permission: 'public' }, perAddress('login'), ...loginAttemptLimits<UserSessionState>(context), async (ctx) => {
    const credentials = readLogin(ctx.request.body);
    const user = await users.findByEmail(credentials.email);
    // Unknown email, invited user without a password and wrong password take the same time and answer.
    const hash = user?.status === 'active' && user.password_hash ? user.password_hash : await dummyPasswordHash();
    const matches = await verifyPassword(credentials.password, hash);
    if (!user || user.status !== 'active' || !user.password_hash || !matches) {
      throw new DomainError('INVALID_CREDENTIALS', 'Invalid email or password');
    }
    const loggedIn = (await users.update({ organizationId: user.organization_id, environment: 'live' }, user.id, { last_login_at: clock() })) ?? user;
    // Issued in the session generation of the password just checked, so a reset meanwhile ends it too.
    const session = await sessionBody(context, user);
    ctx.body = { token: session.token, user: toPublicUser(loggedIn), expires_at: session.expires_at };
  });

  defineRoute(router, { method: 'POST', path: '/api/auth/forgot-password', permission: 'public' }, perAddress('forgot-password'), perEmail('forgot-password'), async (ctx) => {
    const { email } = readForgotPassword(ctx.request.body);
    // The work for a known email happens after the answer, so its timing does not tell either.
    void sendResetMail(context, email).catch((error: unknown) => context.logger.error({ err: error }, 'could not send a password reset mail'));
    ctx.body = { message: FORGOT_PASSWORD_MESSAGE };
  });

  defineRoute(router, { method: 'POST', path: '/api/auth/reset-password', permission: 'public' }, perAddress('reset-password'), async (ctx) => {
    // The body is checked before the token is used, so a weak password does not burn the link.
    const input = readResetPassword(ctx.request.body);
    const now = clock();
    const token = await accountTokens.consume('password_reset', input.token, now);
    if (!token) throw new DomainError('INVALID_RESET_TOKEN', 'Reset token is invalid or has expired');
    const passwordHash = await hashPassword(input.new_password);
    const updated = await users.resetPassword({ organizationId: token.organization_id, environment: 'live' }, token.user_id, passwordHash, now);
    if (!updated) throw new DomainError('INVALID_RESET_TOKEN', 'Reset token is invalid or has expired');
    ctx.body = { message: 'Password has been reset. Sign in with the new password.' };
  });

  defineRoute(router, { method: 'POST', path: '/api/auth/accept-invite', permission: 'public' }, perAddress('accept-invite'), async (ctx) => {
    const input = readAcceptInvite(ctx.request.body);
    const now = clock();
    const invalid = (): DomainError => new DomainError('INVALID_RESET_TOKEN', 'Invitation token is invalid or has expired');
    // Looked at first and used only once the body is complete, so a missing name does not burn the link.
    const pending = await accountTokens.peek('invitation', input.token, now);
    const tenant = pending ? { organizationId: pending.organization_id, environment: 'live' as const } : null;
    const invited = pending && tenant ? await users.findById(tenant, pending.user_id) : null;
    if (!tenant || !invited || invited.status !== 'invited') throw invalid();
    const firstName = input.first_name ?? invited.first_name;
    const lastName = input.last_name ?? invited.last_name;
    if (firstName.length < 2 || lastName.length < 2) {
      throw new DomainError('VALIDATION_ERROR', 'Validation failed', [
        ...(firstName.length < 2 ? [{ field: 'first_name', message: 'is required' }] : []),
        ...(lastName.length < 2 ? [{ field: 'last_name', message: 'is required' }] : []),
      ]);
    }
    if (!(await accountTokens.consume('invitation', input.token, now))) throw invalid();
    const user = await users.update(
      tenant,
      invited.id,
      { password_hash: await hashPassword(input.password), password_changed_at: now, status: 'active', first_name: firstName, last_name: lastName, last_login_at: now },
      now,
    );
    if (!user) throw invalid();
    const session = await sessionBody(context, user);
    ctx.body = { token: session.token, user: toPublicUser(user), expires_at: session.expires_at };
  });

  defineRoute(router, { method: 'POST', path: '/api/auth/change-password', permission: 'authenticated' }, perAddress('change-password'), async (ctx) => {
    const input = readChangePassword(ctx.request.body);
    const { user, tenant } = ctx.state;
    const current = await users.findById(tenant, user.id);
    if (!current?.password_hash || !(await verifyPassword(input.current_password, current.password_hash))) {
      throw new DomainError('VALIDATION_ERROR', 'Validation failed', [{ field: 'current_password', message: 'is not your current password' }]);
    }
    // The same write as a reset: every session issued before it ends, on every device. This client
    // keeps working with the session issued here, in the new generation.
    const updated = await users.resetPassword(tenant, user.id, await hashPassword(input.new_password), clock());
    if (!updated) throw new DomainError('TOKEN_INVALID', 'Session has ended; log in again');
    const session = await sessionBody(context, updated);
    ctx.body = { message: 'Password changed. Other sessions have been signed out.', token: session.token, expires_at: session.expires_at };
  });

  defineRoute(router, { method: 'POST', path: '/api/auth/refresh', permission: 'authenticated' }, perAddress('refresh'), async (ctx) => {
    const { user, session } = ctx.state;
    // The old token ends first, and only one request can end it: of concurrent refreshes of one
    // token exactly one gets a new session, so a refresh never leaves two live sessions behind.
    if (!(await sessions.revoke(session.tokenId, user.id, session.expiresAt, clock()))) {
      throw new DomainError('TOKEN_INVALID', 'Session has ended; log in again');
    }
    const next = await context.tokens.issue(user);
    ctx.body = { token: next.token, expires_at: next.expiresAt.toISOString() };
  });

  defineRoute(router, { method: 'POST', path: '/api/auth/logout', permission: 'authenticated' }, perAddress('logout'), async (ctx) => {
    const { user, session } = ctx.state;
    await sessions.revoke(session.tokenId, user.id, session.expiresAt, clock());
    ctx.status = 204;
  });

  return router;
}

async function sendResetMail(context: AccountsContext, email: string): Promise<void> {
  const user = await context.users.findByEmail(email);
  if (!user || user.status !== 'active') return;
  const { token, expiresAt } = await context.accountTokens.issue('password_reset', user, context.clock());
  const link = accountLink(context, 'reset-password', token);
  await context.mailer.send({
    to: user.email,
    subject: 'Reset your LeadStream password',
    text: [
      `Hello ${user.first_name},`,
      '',
      'Someone (hopefully you) asked to reset the password of your LeadStream account. Open this link to choose a new one:',
      '',
      link,
      '',
      `The link works once and expires at ${expiresAt.toISOString()} (in one hour). If you did not ask for it, ignore this mail.`,
    ].join('\n'),
  });
}
