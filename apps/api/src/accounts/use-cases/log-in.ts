/** POST /api/auth/login: a new session for the right email and password. */
import type { UserRepository } from '@leadstream/dal';
import { DomainError, dummyPasswordHash, verifyPassword, type Credentials, type User } from '@leadstream/domain';
import { issueSession, type IssuedSessionAnswer, type SessionIssuer } from './session-answer';

export interface LogInDeps extends SessionIssuer {
  users: Pick<UserRepository, 'findByEmail' | 'update'>;
  clock: () => Date;
}

export type LogInInput = Credentials;

export interface LogInResult {
  /** The user with the new last_login_at. */
  user: User;
  session: IssuedSessionAnswer;
}

export async function logIn(deps: LogInDeps, input: LogInInput): Promise<LogInResult> {
  const user = await deps.users.findByEmail(input.email);
  // Unknown email, invited user without a password and wrong password take the same time and answer.
  const hash = user?.status === 'active' && user.password_hash ? user.password_hash : await dummyPasswordHash();
  const matches = await verifyPassword(input.password, hash);
  if (!user || user.status !== 'active' || !user.password_hash || !matches) {
    throw new DomainError('INVALID_CREDENTIALS', 'Invalid email or password');
  }
  const loggedIn =
    (await deps.users.update({ organizationId: user.organization_id, environment: 'live' }, user.id, {
      last_login_at: deps.clock(),
    })) ?? user;
  // Issued in the session generation of the password just checked, so a reset meanwhile ends it too.
  const session = await issueSession(deps, user);
  return { user: loggedIn, session };
}
