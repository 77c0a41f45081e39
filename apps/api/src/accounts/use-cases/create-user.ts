/** POST /api/users: an active user with a password, in a role the actor may grant. */
import type { UserRepository } from '@leadstream/dal';
import { hashPassword, type NewUser, type TenantContext, type User } from '@leadstream/domain';
import { assertCanAssign, createUniqueUser, emailTaken } from './user-access';

export interface CreateUserDeps {
  users: Pick<UserRepository, 'findByEmail' | 'create'>;
  clock: () => Date;
}

export interface CreateUserInput {
  tenant: TenantContext;
  actor: Pick<User, 'role'>;
  user: NewUser;
}

export async function createUser(deps: CreateUserDeps, input: CreateUserInput): Promise<User> {
  const { tenant, actor, user } = input;
  assertCanAssign(actor, user.role);
  if (await deps.users.findByEmail(user.email)) throw emailTaken();
  return createUniqueUser(
    deps.users,
    tenant,
    {
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      role: user.role,
      status: 'active',
      password_hash: await hashPassword(user.password),
    },
    deps.clock(),
  );
}
