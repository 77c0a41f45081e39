/**
 * What the accounts routers share: repositories, the session guard, the mailer. Built once per
 * app from the store and the accounts configuration.
 */
import {
  AccountTokenRepository,
  type Dal,
  OAuthGrantRepository,
  RateLimiter,
  type RequestLimiter,
  SessionRepository,
  UserRepository,
} from '@leadstream/dal';
import { LOGIN_ACCOUNT_BACKSTOP, RATE_LIMITS } from '@leadstream/domain';
import type { DocumentStore, EventLog, Mailer } from '@leadstream/ports';
import type { ConfigCache } from '@leadstream/runtime';
import type { Logger } from 'pino';
import { SessionGuard } from '../auth/session.middleware';
import { SessionTokens } from '../auth/session-tokens';

export interface AccountsConfig {
  /** HS256 signing secret of session tokens, at least 32 characters. */
  jwtSecret: string;
  /**
   * Base of the links in mails: `${appUrl}/reset-password?token=…`. A function when it is known
   * only once the server listens (the address it listens on, when APP_URL is not set).
   */
  appUrl: string | (() => string);
  mailer: Mailer;
  /**
   * Requests per minute (docs/api-conventions.md "Rate limits"): authentication endpoints 10,
   * general API 100. `loginPerAccount`: sign-in attempts per account from all addresses per 15
   * minutes (default 200, see ./login-limits.ts).
   */
  rateLimits: { authentication: number; generalApi: number; loginPerAccount?: number };
  clock?: () => Date;
}

export const DEFAULT_ACCOUNT_RATE_LIMITS = {
  authentication: RATE_LIMITS.authentication,
  generalApi: RATE_LIMITS.general_api,
} as const;

export interface AccountsContext {
  dal: Dal;
  users: UserRepository;
  sessions: SessionRepository;
  accountTokens: AccountTokenRepository;
  tokens: SessionTokens;
  guard: SessionGuard;
  mailer: Mailer;
  log: EventLog;
  logger: Logger;
  /** Told after every configuration write (keys, vendors, organization settings). */
  configCache: Pick<ConfigCache, 'changed'>;
  /** The base of mail links, without a trailing slash. */
  appUrl: () => string;
  authRateLimit: number;
  /** The per-account backstop of sign-in attempts: its own counters, in 15-minute windows. */
  loginBackstop: { limiter: RequestLimiter; attempts: number };
  clock: () => Date;
}

export function createAccountsContext(
  store: DocumentStore,
  dal: Dal,
  log: EventLog,
  logger: Logger,
  config: AccountsConfig,
  configCache: Pick<ConfigCache, 'changed'>,
): AccountsContext {
  const clock = config.clock ?? (() => new Date());
  const users = new UserRepository(store);
  const sessions = new SessionRepository(store);
  const tokens = new SessionTokens(config.jwtSecret, clock);
  return {
    dal,
    users,
    sessions,
    accountTokens: new AccountTokenRepository(store),
    tokens,
    guard: new SessionGuard({
      tokens,
      users,
      sessions,
      oauthGrants: new OAuthGrantRepository(store),
      limiter: dal.rateLimiter,
      generalApiLimit: config.rateLimits.generalApi,
      clock,
    }),
    mailer: config.mailer,
    log,
    logger,
    configCache,
    appUrl: () => (typeof config.appUrl === 'string' ? config.appUrl : config.appUrl()).replace(/\/+$/, ''),
    authRateLimit: config.rateLimits.authentication,
    // Counted in the store on every engine set: shared by all api processes and kept over a restart.
    loginBackstop: {
      limiter: new RateLimiter(store, LOGIN_ACCOUNT_BACKSTOP.windowSeconds),
      attempts: config.rateLimits.loginPerAccount ?? LOGIN_ACCOUNT_BACKSTOP.attempts,
    },
    clock,
  };
}

/** A link in a mail: the token travels in the query string of the web app's page. */
export function accountLink(context: AccountsContext, page: 'reset-password' | 'accept-invite', token: string): string {
  return `${context.appUrl()}/${page}?token=${encodeURIComponent(token)}`;
}
