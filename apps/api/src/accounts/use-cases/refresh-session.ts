/**
 * POST /api/auth/refresh: the presented session ends and a new one begins. The old token ends
 * first, and only one request can end it: of concurrent refreshes of one token exactly one gets a
 * new session, so a refresh never leaves two live sessions behind.
 */
import type { SessionRepository } from '@leadstream/dal';
import { DomainError, type User } from '@leadstream/domain';
import type { SessionClaims } from '../../auth/session-tokens';
import { issueSession, type IssuedSessionAnswer, type SessionIssuer } from './session-answer';

export interface RefreshSessionDeps extends SessionIssuer {
  sessions: Pick<SessionRepository, 'revoke'>;
  clock: () => Date;
}

export interface RefreshSessionInput {
  actor: User;
  session: Pick<SessionClaims, 'tokenId' | 'expiresAt'>;
}

export async function refreshSession(
  deps: RefreshSessionDeps,
  input: RefreshSessionInput,
): Promise<IssuedSessionAnswer> {
  const { actor, session } = input;
  if (!(await deps.sessions.revoke(session.tokenId, actor.id, session.expiresAt, deps.clock()))) {
    throw new DomainError('TOKEN_INVALID', 'Session has ended; log in again');
  }
  return issueSession(deps, actor);
}
