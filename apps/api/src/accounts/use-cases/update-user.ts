/** PATCH /api/users/:id: names and role, within the role rules; nobody changes their own role. */
import type { UserRepository } from '@leadstream/dal';
import { DomainError, readUserPatch, type TenantContext, type User } from '@leadstream/domain';
import { assertCanAssign, assertCanManage, userNotFound } from './user-access';

export interface UpdateUserDeps {
  users: Pick<UserRepository, 'findById' | 'update'>;
  clock: () => Date;
}

export interface UpdateUserInput {
  tenant: TenantContext;
  actor: Pick<User, 'id' | 'role'>;
  userId: string;
  /** The request body: read after the user is found, so an unknown user is a 404 whatever the body. */
  body: unknown;
}

export async function updateUser(deps: UpdateUserDeps, input: UpdateUserInput): Promise<User> {
  const { tenant, actor } = input;
  const target = await deps.users.findById(tenant, input.userId);
  if (!target) throw userNotFound();
  const patch = readUserPatch(input.body);
  assertCanManage(actor, target);
  if (patch.role !== undefined && patch.role !== target.role) {
    if (target.id === actor.id) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'You cannot change your own role');
    assertCanAssign(actor, patch.role, target.role);
  }
  const updated = await deps.users.update(tenant, target.id, patch, deps.clock());
  if (!updated) throw userNotFound();
  return updated;
}
