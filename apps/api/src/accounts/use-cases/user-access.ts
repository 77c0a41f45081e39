/**
 * What the user use cases share: the errors and the role rules. Nobody grants a role above their
 * own; only owners make, change or delete owners; nobody changes their own role or deletes
 * themselves (so an organization always keeps an owner).
 */
import type { UserRepository } from '@leadstream/dal';
import { canAssignRole, canManageUser, DomainError, type Role, type User } from '@leadstream/domain';
import { DuplicateKeyError } from '@leadstream/ports';

export const userNotFound = (): DomainError => new DomainError('NOT_FOUND', 'User not found');
export const emailTaken = (): DomainError =>
  new DomainError('EMAIL_ALREADY_REGISTERED', 'An account with this email already exists');

export function assertCanAssign(actor: Pick<User, 'role'>, role: Role, currentRole?: Role): void {
  if (!canAssignRole(actor.role, role, currentRole)) {
    throw new DomainError('INSUFFICIENT_PERMISSIONS', `Your role (${actor.role}) cannot grant the role '${role}'`);
  }
}

export function assertCanManage(actor: Pick<User, 'role'>, target: Pick<User, 'role'>): void {
  if (!canManageUser(actor.role, target.role)) {
    throw new DomainError(
      'INSUFFICIENT_PERMISSIONS',
      `Your role (${actor.role}) cannot manage a user with the role '${target.role}'`,
    );
  }
}

/** users.create, with a lost race for the email answered as the email being taken. */
export async function createUniqueUser(
  users: Pick<UserRepository, 'create'>,
  ...args: Parameters<UserRepository['create']>
): Promise<User> {
  try {
    return await users.create(...args);
  } catch (error) {
    if (error instanceof DuplicateKeyError) throw emailTaken();
    throw error;
  }
}
