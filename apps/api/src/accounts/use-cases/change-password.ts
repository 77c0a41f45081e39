/**
 * POST /api/auth/change-password: the same write as a reset, after the current password is checked.
 * Every session issued before it ends, on every device; the caller keeps working with the session
 * issued here, in the new generation.
 */
import type { UserRepository } from '@leadstream/dal';
import { DomainError, hashPassword, verifyPassword, type TenantContext, type User } from '@leadstream/domain';
import { issueSession, type IssuedSessionAnswer, type SessionIssuer } from './session-answer';

export interface ChangePasswordDeps extends SessionIssuer {
  users: Pick<UserRepository, 'findById' | 'resetPassword'>;
  clock: () => Date;
}

export interface ChangePasswordInput {
  tenant: TenantContext;
  actor: Pick<User, 'id'>;
  current_password: string;
  new_password: string;
}

export async function changePassword(
  deps: ChangePasswordDeps,
  input: ChangePasswordInput,
): Promise<IssuedSessionAnswer> {
  const { tenant, actor } = input;
  const current = await deps.users.findById(tenant, actor.id);
  if (!current?.password_hash || !(await verifyPassword(input.current_password, current.password_hash))) {
    throw new DomainError('VALIDATION_ERROR', 'Validation failed', [
      { field: 'current_password', message: 'is not your current password' },
    ]);
  }
  const updated = await deps.users.resetPassword(
    tenant,
    actor.id,
    await hashPassword(input.new_password),
    deps.clock(),
  );
  if (!updated) throw new DomainError('TOKEN_INVALID', 'Session has ended; log in again');
  return issueSession(deps, updated);
}
