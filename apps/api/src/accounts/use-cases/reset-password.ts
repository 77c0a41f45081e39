/** POST /api/auth/reset-password: a new password for the reset token's user; every earlier session ends. */
import type { AccountTokenRepository, UserRepository } from '@leadstream/dal';
import { DomainError, hashPassword } from '@leadstream/domain';

export interface ResetPasswordDeps {
  users: Pick<UserRepository, 'resetPassword'>;
  accountTokens: Pick<AccountTokenRepository, 'consume'>;
  clock: () => Date;
}

export interface ResetPasswordInput {
  token: string;
  new_password: string;
}

const invalidToken = (): DomainError => new DomainError('INVALID_RESET_TOKEN', 'Reset token is invalid or has expired');

export async function resetPassword(deps: ResetPasswordDeps, input: ResetPasswordInput): Promise<void> {
  const now = deps.clock();
  const token = await deps.accountTokens.consume('password_reset', input.token, now);
  if (!token) throw invalidToken();
  const passwordHash = await hashPassword(input.new_password);
  const updated = await deps.users.resetPassword(
    { organizationId: token.organization_id, environment: 'live' },
    token.user_id,
    passwordHash,
    now,
  );
  if (!updated) throw invalidToken();
}
