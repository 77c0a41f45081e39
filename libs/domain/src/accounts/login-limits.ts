/**
 * Limits of password sign-in beyond the 10 a minute per client address of every authentication
 * endpoint (docs/api-conventions.md "Rate limits"). docs/decisions.md, "Accounts", gives the whole
 * rule.
 *
 * Per account from all addresses together, at most `attempts` per `windowSeconds`: a guess spread
 * over many addresses is still slowed. It is above the 150 attempts one address can make in the
 * window at 10 a minute, so a single address can never lock the owner out.
 */
export const LOGIN_ACCOUNT_BACKSTOP = { attempts: 200, windowSeconds: 15 * 60 } as const;
