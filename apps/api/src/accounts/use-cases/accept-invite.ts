/** POST /api/auth/accept-invite: the invited user sets a password (and names) and is signed in. */
import type { AccountTokenRepository, UserRepository } from '@leadstream/dal';
import { DomainError, hashPassword, type InvitationAcceptance, type User } from '@leadstream/domain';
import { issueSession, type IssuedSessionAnswer, type SessionIssuer } from './session-answer';

export interface AcceptInviteDeps extends SessionIssuer {
  users: Pick<UserRepository, 'findById' | 'update'>;
  accountTokens: Pick<AccountTokenRepository, 'peek' | 'consume'>;
  clock: () => Date;
}

export type AcceptInviteInput = InvitationAcceptance;

export interface AcceptInviteResult {
  user: User;
  session: IssuedSessionAnswer;
}

const invalid = (): DomainError => new DomainError('INVALID_RESET_TOKEN', 'Invitation token is invalid or has expired');

export async function acceptInvite(deps: AcceptInviteDeps, input: AcceptInviteInput): Promise<AcceptInviteResult> {
  const now = deps.clock();
  // Looked at first and used only once the body is complete, so a missing name does not burn the link.
  const pending = await deps.accountTokens.peek('invitation', input.token, now);
  const tenant = pending ? { organizationId: pending.organization_id, environment: 'live' as const } : null;
  const invited = pending && tenant ? await deps.users.findById(tenant, pending.user_id) : null;
  if (!tenant || !invited || invited.status !== 'invited') throw invalid();
  const firstName = input.first_name ?? invited.first_name;
  const lastName = input.last_name ?? invited.last_name;
  if (firstName.length < 2 || lastName.length < 2) {
    throw new DomainError('VALIDATION_ERROR', 'Validation failed', [
      ...(firstName.length < 2 ? [{ field: 'first_name', message: 'is required' }] : []),
      ...(lastName.length < 2 ? [{ field: 'last_name', message: 'is required' }] : []),
    ]);
  }
  if (!(await deps.accountTokens.consume('invitation', input.token, now))) throw invalid();
  const user = await deps.users.update(
    tenant,
    invited.id,
    {
      password_hash: await hashPassword(input.password),
      password_changed_at: now,
      status: 'active',
      first_name: firstName,
      last_name: lastName,
      last_login_at: now,
    },
    now,
  );
  if (!user) throw invalid();
  return { user, session: await issueSession(deps, user) };
}
