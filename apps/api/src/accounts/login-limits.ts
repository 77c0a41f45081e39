/**
 * The limits of password sign-in, shared by POST /api/auth/login and the OAuth sign-in form
 * (POST /oauth/authorize/login), after each endpoint's own limit per client address:
 *
 * 1. per account and client address, the authentication limit (10 a minute): one address cannot
 *    keep guessing one account;
 * 2. per account from all addresses, a backstop of 200 attempts per 15 minutes
 *    (LOGIN_ACCOUNT_BACKSTOP): a guess spread over many addresses is still slowed.
 *
 * There is no limit per account alone at the per-address rate: with one, ten wrong passwords from
 * any address locked the owner out for everyone. The account is the email as login looks it up
 * (trimmed, lower case), so variants of one email share the counters. Only attempts that pass the
 * first limit count towards the backstop, so one address adds at most 150 in a window.
 */
import { emailKey } from '@leadstream/domain';
import type { Middleware, ParameterizedContext } from 'koa';
import { rateLimit } from '../auth/rate-limit.middleware';
import type { AccountsContext } from './accounts.context';

export function loginAttemptLimits<StateT>(
  context: Pick<AccountsContext, 'dal' | 'authRateLimit' | 'loginBackstop' | 'clock'>,
): Middleware<StateT>[] {
  const options = { clock: context.clock };
  /** The body is checked after the limits, so any value counts; a missing email is the account ''. */
  const account = (ctx: ParameterizedContext<StateT>): string => {
    const raw = (ctx.request.body as { email?: unknown } | undefined)?.email;
    return typeof raw === 'string' ? emailKey(raw).slice(0, 254) : '';
  };
  return [
    rateLimit<StateT>(
      'authentication',
      context.dal.rateLimiter,
      (ctx) => ({ subject: `login:email:${account(ctx)}:ip:${ctx.ip}`, limit: context.authRateLimit }),
      options,
    ),
    rateLimit<StateT>(
      'authentication',
      context.loginBackstop.limiter,
      (ctx) => ({ subject: `login-backstop:email:${account(ctx)}`, limit: context.loginBackstop.attempts }),
      options,
    ),
  ];
}
