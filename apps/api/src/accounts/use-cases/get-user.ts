/** GET /api/users/:id */
import type { UserRepository } from '@leadstream/dal';
import type { TenantContext, User } from '@leadstream/domain';
import { userNotFound } from './user-access';

export interface GetUserDeps {
  users: Pick<UserRepository, 'findById'>;
}

export interface GetUserInput {
  tenant: TenantContext;
  userId: string;
}

export async function getUser(deps: GetUserDeps, input: GetUserInput): Promise<User> {
  const user = await deps.users.findById(input.tenant, input.userId);
  if (!user) throw userNotFound();
  return user;
}
