/** What the auth use cases share: the new session that register, login, accept-invite and change-password answer with. */
import type { User } from '@leadstream/domain';
import type { SessionTokens } from '../../auth/session-tokens';

export interface SessionIssuer {
  tokens: Pick<SessionTokens, 'issue'>;
}

export interface IssuedSessionAnswer {
  token: string;
  expires_at: string;
}

export async function issueSession(deps: SessionIssuer, user: User): Promise<IssuedSessionAnswer> {
  const issued = await deps.tokens.issue(user);
  return { token: issued.token, expires_at: issued.expiresAt.toISOString() };
}
