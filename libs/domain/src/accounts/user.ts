/** Users of the user API (operations `listUsers`, `getUser`, ...) and the account tokens of reset and invitation mails. */
import { createHash, randomBytes } from 'node:crypto';
import { randomBase62 } from '../api-keys/api-key';
import type { Role } from './permissions';

export type UserStatus = 'active' | 'invited';

/** The stored user. `password_hash` is null until an invited user accepts. */
export interface User {
  /** `usr_…` */
  id: string;
  organization_id: string;
  /** As entered (trimmed); `email_key` is the lowercased form that must be unique. */
  email: string;
  email_key: string;
  first_name: string;
  last_name: string;
  role: Role;
  status: UserStatus;
  password_hash: string | null;
  /** When the password was last set; a token without a session generation issued before it is refused. */
  password_changed_at: Date | null;
  /**
   * Goes up by one at every password reset. A session token carries the generation it was issued
   * in, and only tokens of the current generation are accepted, so a reset ends every session
   * issued before it, however close in time. Absent on users stored before it existed: 0.
   */
  session_generation?: number;
  last_login_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The user as login and registration return it (`login`, `register`). */
export interface PublicUser {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  organization_id: string;
}

export function toPublicUser(user: User): PublicUser {
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    role: user.role,
    organization_id: user.organization_id,
  };
}

/** The user as the users endpoints return it: the login view plus status and timestamps. */
export function toUserResource(
  user: User,
): PublicUser & { status: UserStatus; last_login_at: string | null; created_at: string; updated_at: string } {
  return {
    ...toPublicUser(user),
    status: user.status,
    last_login_at: user.last_login_at?.toISOString() ?? null,
    created_at: user.created_at.toISOString(),
    updated_at: user.updated_at.toISOString(),
  };
}

export function newUserId(): string {
  return `usr_${randomBase62(24)}`;
}

/**
 * Emails identify accounts case-insensitively: `Ann@X.edu` and `ann@x.edu` are one account.
 * (RFC 5321 allows case-sensitive local parts; no mail system in use relies on it.)
 */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

export type AccountTokenKind = 'password_reset' | 'invitation';

/** Reset tokens live 1 hour, invitations 7 days (docs/decisions.md "Accounts"). */
export const ACCOUNT_TOKEN_TTL_MS: Readonly<Record<AccountTokenKind, number>> = {
  password_reset: 60 * 60 * 1000,
  invitation: 7 * 24 * 60 * 60 * 1000,
};

/** 32 random bytes, URL-safe: what the mailed link carries. Only its hash is stored. */
export function generateAccountToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashAccountToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The session generation of a user (see `User.session_generation`). */
export function sessionGeneration(user: Pick<User, 'session_generation'>): number {
  return user.session_generation ?? 0;
}

/** Session tokens live 24 hours (docs/api-conventions.md "Authentication"). */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;
