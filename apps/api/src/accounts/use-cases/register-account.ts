/** POST /api/auth/register: a new organization and its owner, signed in. */
import type { Dal, UserRepository } from '@leadstream/dal';
import { DomainError, hashPassword, type Registration, type User } from '@leadstream/domain';
import { DuplicateKeyError } from '@leadstream/ports';
import { issueSession, type IssuedSessionAnswer, type SessionIssuer } from './session-answer';

export interface RegisterAccountDeps extends SessionIssuer {
  users: Pick<UserRepository, 'findByEmail' | 'create'>;
  organizations: Pick<Dal['organizations'], 'create' | 'markDeleted'>;
  clock: () => Date;
}

export type RegisterAccountInput = Registration;

export interface RegisterAccountResult {
  user: User;
  session: IssuedSessionAnswer;
}

const emailTaken = (): DomainError =>
  new DomainError('EMAIL_ALREADY_REGISTERED', 'An account with this email already exists');

export async function registerAccount(
  deps: RegisterAccountDeps,
  input: RegisterAccountInput,
): Promise<RegisterAccountResult> {
  if (await deps.users.findByEmail(input.email)) throw emailTaken();
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock();
  const organization = await deps.organizations.create({ name: input.organization_name }, now);
  const tenant = { organizationId: organization.id, environment: 'live' as const };
  let user: User;
  try {
    user = await deps.users.create(
      tenant,
      {
        email: input.email,
        first_name: input.first_name,
        last_name: input.last_name,
        role: 'owner',
        status: 'active',
        password_hash: passwordHash,
      },
      now,
    );
  } catch (error) {
    // Lost a race for the email: the organization made for it must not linger.
    await deps.organizations.markDeleted(tenant, now);
    if (error instanceof DuplicateKeyError) throw emailTaken();
    throw error;
  }
  return { user, session: await issueSession(deps, user) };
}
