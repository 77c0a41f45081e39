/** DELETE /api/users/:id: within the role rules; nobody deletes themselves. */
import type { UserRepository } from '@leadstream/dal';
import { DomainError, type TenantContext, type User } from '@leadstream/domain';
import { assertCanManage, userNotFound } from './user-access';

export interface DeleteUserDeps {
  users: Pick<UserRepository, 'findById' | 'delete'>;
}

export interface DeleteUserInput {
  tenant: TenantContext;
  actor: Pick<User, 'id' | 'role'>;
  userId: string;
}

export async function deleteUser(deps: DeleteUserDeps, input: DeleteUserInput): Promise<void> {
  const { tenant, actor } = input;
  const target = await deps.users.findById(tenant, input.userId);
  if (!target) throw userNotFound();
  if (target.id === actor.id) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'You cannot delete yourself');
  assertCanManage(actor, target);
  await deps.users.delete(tenant, target.id);
}
