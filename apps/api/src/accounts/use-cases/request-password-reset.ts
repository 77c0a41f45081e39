/** POST /api/auth/forgot-password: mails a reset link to an active user; nothing for an unknown email. */
import type { AccountTokenRepository, UserRepository } from '@leadstream/dal';
import type { Mailer } from '@leadstream/ports';

export interface RequestPasswordResetDeps {
  users: Pick<UserRepository, 'findByEmail'>;
  accountTokens: Pick<AccountTokenRepository, 'issue'>;
  mailer: Pick<Mailer, 'send'>;
  /** The reset page's link for a token. */
  resetLink: (token: string) => string;
  clock: () => Date;
}

export interface RequestPasswordResetInput {
  email: string;
}

export async function requestPasswordReset(
  deps: RequestPasswordResetDeps,
  input: RequestPasswordResetInput,
): Promise<void> {
  const user = await deps.users.findByEmail(input.email);
  if (!user || user.status !== 'active') return;
  const { token, expiresAt } = await deps.accountTokens.issue('password_reset', user, deps.clock());
  const link = deps.resetLink(token);
  await deps.mailer.send({
    to: user.email,
    subject: 'Reset your LeadStream password',
    text: [
      `Hello ${user.first_name},`,
      '',
      'Someone (hopefully you) asked to reset the password of your LeadStream account. Open this link to choose a new one:',
      '',
      link,
      '',
      `The link works once and expires at ${expiresAt.toISOString()} (in one hour). If you did not ask for it, ignore this mail.`,
    ].join('\n'),
  });
}
