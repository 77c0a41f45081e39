/** POST /api/auth/logout: the presented session ends. */
import type { SessionRepository } from '@leadstream/dal';
import type { User } from '@leadstream/domain';
import type { SessionClaims } from '../../auth/session-tokens';

export interface LogOutDeps {
  sessions: Pick<SessionRepository, 'revoke'>;
  clock: () => Date;
}

export interface LogOutInput {
  actor: Pick<User, 'id'>;
  session: Pick<SessionClaims, 'tokenId' | 'expiresAt'>;
}

export async function logOut(deps: LogOutDeps, input: LogOutInput): Promise<void> {
  await deps.sessions.revoke(input.session.tokenId, input.actor.id, input.session.expiresAt, deps.clock());
}
