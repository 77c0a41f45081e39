/**
 * POST /api/users/invite: an invited user (no password yet) and a mail with the link to
 * `${APP_URL}/accept-invite?token=…`. Without the mail the invitation is unusable, so a failed
 * send undoes it (503) and it can be sent again.
 */
import type { AccountTokenRepository, Dal, UserRepository } from '@leadstream/dal';
import { DomainError, type Invitation, type TenantContext, type User } from '@leadstream/domain';
import type { Mailer } from '@leadstream/ports';
import type { Logger } from 'pino';
import { assertCanAssign, createUniqueUser, emailTaken } from './user-access';

export interface InviteUserDeps {
  users: Pick<UserRepository, 'findByEmail' | 'create' | 'delete'>;
  accountTokens: Pick<AccountTokenRepository, 'issue'>;
  organizations: Pick<Dal['organizations'], 'get'>;
  mailer: Pick<Mailer, 'send'>;
  /** The accept-invite page's link for a token. */
  inviteLink: (token: string) => string;
  logger: Pick<Logger, 'error'>;
  clock: () => Date;
}

export interface InviteUserInput {
  tenant: TenantContext;
  actor: Pick<User, 'role' | 'first_name' | 'last_name'>;
  invitation: Invitation;
}

export interface InviteUserResult {
  user: User;
  invitationExpiresAt: Date;
}

export async function inviteUser(deps: InviteUserDeps, input: InviteUserInput): Promise<InviteUserResult> {
  const { tenant, actor, invitation } = input;
  assertCanAssign(actor, invitation.role);
  if (await deps.users.findByEmail(invitation.email)) throw emailTaken();
  const now = deps.clock();
  const user = await createUniqueUser(
    deps.users,
    tenant,
    {
      email: invitation.email,
      first_name: invitation.first_name ?? '',
      last_name: invitation.last_name ?? '',
      role: invitation.role,
      status: 'invited',
      password_hash: null,
    },
    now,
  );
  const { token, expiresAt } = await deps.accountTokens.issue('invitation', user, now);
  const organization = await deps.organizations.get(tenant);
  try {
    await deps.mailer.send({
      to: user.email,
      subject: `You are invited to ${organization?.name ?? 'an organization'} on LeadStream`,
      text: [
        `${actor.first_name} ${actor.last_name} invited you to join ${organization?.name ?? 'their organization'} on LeadStream as ${invitation.role}.`,
        '',
        'Open this link to choose your password and sign in:',
        '',
        deps.inviteLink(token),
        '',
        `The link works once and expires at ${expiresAt.toISOString()}.`,
      ].join('\n'),
    });
  } catch (error) {
    await deps.users.delete(tenant, user.id);
    deps.logger.error({ err: error }, 'could not send an invitation mail');
    throw new DomainError('SERVICE_UNAVAILABLE', 'The invitation mail could not be sent; try again later');
  }
  return { user, invitationExpiresAt: expiresAt };
}
