/** POST /oauth/authorize/login: signs the user in for the consent step only (a consent record, not a session). */
import type { OAuthConsentRepository, UserRepository } from '@leadstream/dal';
import { dummyPasswordHash, verifyPassword } from '@leadstream/domain';

export interface SignInForConsentDeps {
  users: Pick<UserRepository, 'findByEmail'>;
  consents: Pick<OAuthConsentRepository, 'start'>;
  clock: () => Date;
}

export interface SignInForConsentInput {
  email: string;
  password: string;
}

/** The consent cookie of the new record, or `invalid` for an unknown email, a wrong password or an inactive user. */
export type SignInForConsentResult = { kind: 'signed-in'; cookie: string } | { kind: 'invalid' };

export async function signInForConsent(
  deps: SignInForConsentDeps,
  input: SignInForConsentInput,
): Promise<SignInForConsentResult> {
  const user = input.email ? await deps.users.findByEmail(input.email) : null;
  // Unknown email and wrong password take the same time and answer (as POST /api/auth/login).
  const usable = user?.status === 'active' && user.password_hash ? user.password_hash : await dummyPasswordHash();
  const matches = await verifyPassword(input.password, usable);
  if (!user || user.status !== 'active' || !user.password_hash || !matches) return { kind: 'invalid' };
  const { cookie } = await deps.consents.start(user, deps.clock());
  return { kind: 'signed-in', cookie };
}
