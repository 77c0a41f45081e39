/** GET /api/users: the organization's users. */
import type { UserRepository } from '@leadstream/dal';
import type { TenantContext, User } from '@leadstream/domain';

export interface ListUsersDeps {
  users: Pick<UserRepository, 'list'>;
}

export interface ListUsersInput {
  tenant: TenantContext;
}

export async function listUsers(deps: ListUsersDeps, input: ListUsersInput): Promise<User[]> {
  return deps.users.list(input.tenant);
}
