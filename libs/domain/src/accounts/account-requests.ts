/**
 * The bodies of the accounts endpoints (authentication, API keys, users, vendors and the
 * organization: operations `register`, `createApiKey`, `createUser`, `createVendor`, ...), read and
 * checked at the edge.
 *
 * Registration rules (`register`; sizes in docs/api-conventions.md "Limits"): email in a valid
 * format; password at least 8 characters with an uppercase letter, a lowercase letter and a digit;
 * first_name and last_name 2-50 characters; organization_name 2-100. A weak password is 400
 * WEAK_PASSWORD when it is the only problem; with other problems the answer is one VALIDATION_ERROR
 * listing all of them (docs/decisions.md).
 */
import { DomainError } from '../errors';
import { API_KEY_PERMISSIONS, DEFAULT_API_KEY_PERMISSIONS, type ApiKeyPermission } from '../api-keys/api-key';
import { parsePermissions } from '../api-keys/api-key-checks';
import { validateIpRestrictions } from '../api-keys/ip-restrictions';
import type { Environment } from '../tenant';
import { asBody, bool, email, integer, nameText, oneOf, Problems, secret, stringList, text, type Body } from './input';
import { PASSWORD_MAX_LENGTH, passwordWeakness } from './password';
import { ROLES, type Role } from './permissions';

const NAME = { min: 2, max: 50 };
const ORGANIZATION_NAME = { min: 2, max: 100 };

/** Checks a new password; a weakness is remembered apart from other problems. */
function newPassword(
  body: Body,
  field: string,
  problems: Problems,
): { value: string | undefined; weakness: string | null } {
  const value = body[field];
  if (typeof value !== 'string' || value.length === 0) {
    problems.add(field, 'is required');
    return { value: undefined, weakness: null };
  }
  if (value.length > PASSWORD_MAX_LENGTH) {
    problems.add(field, `must be at most ${PASSWORD_MAX_LENGTH} characters`);
    return { value: undefined, weakness: null };
  }
  return { value, weakness: passwordWeakness(value) };
}

function finish(problems: Problems, field: string, weakness: string | null): void {
  if (weakness !== null && !problems.has())
    throw new DomainError('WEAK_PASSWORD', weakness, [{ field, message: weakness }]);
  if (weakness !== null) problems.add(field, weakness);
  problems.throwIfAny();
}

export interface Registration {
  email: string;
  password: string;
  first_name: string;
  last_name: string;
  organization_name: string;
}

export function readRegistration(raw: unknown): Registration {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['email', 'password', 'first_name', 'last_name', 'organization_name']);
  const address = email(body, 'email', problems);
  const password = newPassword(body, 'password', problems);
  const first = nameText(body, 'first_name', problems, NAME);
  const last = nameText(body, 'last_name', problems, NAME);
  const organization = nameText(body, 'organization_name', problems, ORGANIZATION_NAME);
  finish(problems, 'password', password.weakness);
  return {
    email: address!,
    password: password.value!,
    first_name: first!,
    last_name: last!,
    organization_name: organization!,
  };
}

export interface Credentials {
  email: string;
  password: string;
}

/**
 * Login checks only presence: an address that is not an email cannot be registered, so it gets
 * INVALID_CREDENTIALS like any unknown one (the answer must not depend on what exists).
 */
export function readLogin(raw: unknown): Credentials {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['email', 'password']);
  const address = secret(body, 'email', problems, 254);
  const password = secret(body, 'password', problems, PASSWORD_MAX_LENGTH);
  problems.throwIfAny();
  return { email: address!, password: password! };
}

export function readForgotPassword(raw: unknown): { email: string } {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['email']);
  const address = email(body, 'email', problems);
  problems.throwIfAny();
  return { email: address! };
}

export function readResetPassword(raw: unknown): { token: string; new_password: string } {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['token', 'new_password']);
  const token = secret(body, 'token', problems, 200);
  const password = newPassword(body, 'new_password', problems);
  finish(problems, 'new_password', password.weakness);
  return { token: token!, new_password: password.value! };
}

/** `POST /api/auth/change-password`: the current password (checked by the caller) and a new one that differs from it. */
export function readChangePassword(raw: unknown): { current_password: string; new_password: string } {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['current_password', 'new_password']);
  const current = secret(body, 'current_password', problems, 200);
  const password = newPassword(body, 'new_password', problems);
  if (current !== undefined && password.value !== undefined && current === password.value)
    problems.add('new_password', 'must differ from the current password');
  finish(problems, 'new_password', password.weakness);
  return { current_password: current!, new_password: password.value! };
}

export interface InvitationAcceptance {
  token: string;
  password: string;
  first_name: string | undefined;
  last_name: string | undefined;
}

export function readAcceptInvite(raw: unknown): InvitationAcceptance {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['token', 'password', 'first_name', 'last_name']);
  const token = secret(body, 'token', problems, 200);
  const password = newPassword(body, 'password', problems);
  const first = nameText(body, 'first_name', problems, { ...NAME, required: false });
  const last = nameText(body, 'last_name', problems, { ...NAME, required: false });
  finish(problems, 'password', password.weakness);
  return { token: token!, password: password.value!, first_name: first, last_name: last };
}

export interface NewUser {
  email: string;
  password: string;
  first_name: string;
  last_name: string;
  role: Role;
}

/** POST /users: an active user with a password the admin chose (they can reset it later). */
export function readNewUser(raw: unknown): NewUser {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['email', 'password', 'first_name', 'last_name', 'role']);
  const address = email(body, 'email', problems);
  const password = newPassword(body, 'password', problems);
  const first = nameText(body, 'first_name', problems, NAME);
  const last = nameText(body, 'last_name', problems, NAME);
  const role = oneOf(body, 'role', ROLES, problems, { required: true });
  finish(problems, 'password', password.weakness);
  return { email: address!, password: password.value!, first_name: first!, last_name: last!, role: role! };
}

export interface Invitation {
  email: string;
  role: Role;
  first_name: string | undefined;
  last_name: string | undefined;
}

export function readInvitation(raw: unknown): Invitation {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['email', 'role', 'first_name', 'last_name']);
  const address = email(body, 'email', problems);
  const role = oneOf(body, 'role', ROLES, problems, { required: true });
  const first = nameText(body, 'first_name', problems, { ...NAME, required: false });
  const last = nameText(body, 'last_name', problems, { ...NAME, required: false });
  problems.throwIfAny();
  return { email: address!, role: role!, first_name: first, last_name: last };
}

export interface UserPatch {
  first_name?: string;
  last_name?: string;
  role?: Role;
}

export function readUserPatch(raw: unknown): UserPatch {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['first_name', 'last_name', 'role']);
  const patch: UserPatch = {};
  const first = nameText(body, 'first_name', problems, { ...NAME, required: false });
  const last = nameText(body, 'last_name', problems, { ...NAME, required: false });
  const role = oneOf(body, 'role', ROLES, problems);
  problems.throwIfAny();
  if (first !== undefined) patch.first_name = first;
  if (last !== undefined) patch.last_name = last;
  if (role !== undefined) patch.role = role;
  if (Object.keys(patch).length === 0)
    throw new DomainError('VALIDATION_ERROR', 'Nothing to change', [
      { field: 'body', message: 'give first_name, last_name or role' },
    ]);
  return patch;
}

export type VendorKind = 'inquiry' | 'application';
const VENDOR_KINDS: readonly VendorKind[] = ['inquiry', 'application'];

export interface VendorInput {
  name: string;
  type: VendorKind;
  group: string | null;
  contact_email: string | null;
  /** What a lead from the vendor costs (any currency, the organization's), for vendor ROI; null when not set. */
  cost_per_lead: number | null;
  enabled?: boolean;
}

/** The most a lead may cost: a sanity bound, not a business rule. */
export const MAX_COST_PER_LEAD = 100_000;

/** POST /vendors and PUT /vendors/:id (a full replacement: absent optional fields become null). */
export function readVendor(raw: unknown): VendorInput {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['name', 'type', 'group', 'contact_email', 'cost_per_lead', 'enabled']);
  const vendorName = nameText(body, 'name', problems, { min: 1, max: 200 });
  const type = oneOf(body, 'type', VENDOR_KINDS, problems, { required: true });
  const group = text(body, 'group', problems, { min: 1, max: 100, required: false });
  const contact = email(body, 'contact_email', problems, false);
  const enabled = bool(body, 'enabled', problems);
  const cost = body['cost_per_lead'];
  if (
    cost !== undefined &&
    cost !== null &&
    (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0 || cost > MAX_COST_PER_LEAD)
  ) {
    problems.add('cost_per_lead', `must be a number from 0 to ${MAX_COST_PER_LEAD}, or null`);
  }
  problems.throwIfAny();
  return {
    name: vendorName!,
    type: type!,
    group: group ?? null,
    contact_email: contact ?? null,
    cost_per_lead: typeof cost === 'number' ? cost : null,
    ...(enabled === undefined ? {} : { enabled }),
  };
}

export interface ApiKeyRequest {
  name: string;
  vendor_id: string;
  permissions: ApiKeyPermission[];
  ip_restrictions: string[];
  rate_limit: number | null;
  environment: Environment;
}

/** Per-key overrides stay within what a vendor could sensibly need per minute. */
export const API_KEY_RATE_LIMIT_MAX = 100_000;

function permissionsOf(body: Body, problems: Problems): ApiKeyPermission[] | undefined {
  const list = stringList(body, 'permissions', problems, { maxItems: API_KEY_PERMISSIONS.length });
  if (list === undefined) return undefined;
  try {
    return parsePermissions(list);
  } catch (error) {
    if (error instanceof DomainError)
      for (const detail of error.details ?? []) problems.add(detail.field, detail.message);
    return undefined;
  }
}

function ipRestrictionsOf(body: Body, problems: Problems): string[] | undefined {
  const list = stringList(body, 'ip_restrictions', problems, { maxItems: 100 });
  if (list === undefined) return undefined;
  try {
    return validateIpRestrictions(list);
  } catch (error) {
    if (error instanceof DomainError)
      for (const detail of error.details ?? []) problems.add(detail.field, detail.message);
    return undefined;
  }
}

export function readApiKeyRequest(raw: unknown): ApiKeyRequest {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['name', 'vendor_id', 'permissions', 'ip_restrictions', 'rate_limit', 'environment']);
  const name = text(body, 'name', problems, { min: 1, max: 100 });
  const vendorId = text(body, 'vendor_id', problems, { min: 1, max: 100 });
  const permissions =
    body['permissions'] === undefined ? [...DEFAULT_API_KEY_PERMISSIONS] : permissionsOf(body, problems);
  const ips = ipRestrictionsOf(body, problems) ?? [];
  const rateLimit =
    body['rate_limit'] === null
      ? undefined
      : integer(body, 'rate_limit', problems, { min: 1, max: API_KEY_RATE_LIMIT_MAX });
  const environment = oneOf(body, 'environment', ['live', 'sandbox'] as const, problems) ?? 'live';
  problems.throwIfAny();
  return {
    name: name!,
    vendor_id: vendorId!,
    permissions: permissions!,
    ip_restrictions: ips,
    rate_limit: rateLimit ?? null,
    environment,
  };
}

export interface ApiKeyPatch {
  name?: string;
  enabled?: boolean;
  permissions?: ApiKeyPermission[];
  ip_restrictions?: string[];
}

export function readApiKeyPatch(raw: unknown): ApiKeyPatch {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['name', 'enabled', 'permissions', 'ip_restrictions']);
  const name = text(body, 'name', problems, { min: 1, max: 100, required: false });
  const enabled = bool(body, 'enabled', problems);
  const permissions = permissionsOf(body, problems);
  const ips = ipRestrictionsOf(body, problems);
  problems.throwIfAny();
  const patch: ApiKeyPatch = {};
  if (name !== undefined) patch.name = name;
  if (enabled !== undefined) patch.enabled = enabled;
  if (permissions !== undefined) patch.permissions = permissions;
  if (ips !== undefined) patch.ip_restrictions = ips;
  if (Object.keys(patch).length === 0) {
    throw new DomainError('VALIDATION_ERROR', 'Nothing to change', [
      { field: 'body', message: 'give name, enabled, permissions or ip_restrictions' },
    ]);
  }
  return patch;
}
