/**
 * `leadstream user create --org <id> --email <e> [--role viewer]`: a user who can sign in to the
 * user API and the console. Without --role the user is a viewer (the least a role can do; the
 * organization's owner comes with `org create --owner-email`). The password is generated, printed
 * once, and only its hash is stored; the user changes it after signing in (or through forgot-password).
 */
import { randomBytes } from 'node:crypto';
import { Command, Option } from 'commander';
import type { UserRepository } from '@leadstream/dal';
import {
  hashPassword,
  passwordWeakness,
  readNewUser,
  ROLES,
  type Role,
  type TenantContext,
  type User,
} from '@leadstream/domain';
import { adminAction, AdminInputError, print, withDal } from './admin-context';

/** Roles a command can give: a vendor user belongs to a vendor, which the portal invitation sets. */
const ASSIGNABLE_ROLES = ROLES.filter((role) => role !== 'vendor');

export interface NewUserOptions {
  email: string;
  role: Role;
  firstName: string;
  lastName: string;
}

/** A random password that meets the strength rule (20 characters of base64url). */
export function oneTimePassword(): string {
  for (;;) {
    const candidate = randomBytes(15).toString('base64url');
    if (passwordWeakness(candidate) === null) return candidate;
  }
}

/** Creates an active user with a generated password; the caller prints the password once. */
export async function createUserWithPassword(
  users: UserRepository,
  tenant: TenantContext,
  options: NewUserOptions,
): Promise<{ user: User; password: string }> {
  const password = oneTimePassword();
  // The API's reader: the same email, name and role rules as POST /api/users.
  const input = readNewUser({
    email: options.email,
    password,
    first_name: options.firstName,
    last_name: options.lastName,
    role: options.role,
  });
  if (await users.findByEmail(input.email))
    throw new AdminInputError(
      `a user with the email ${input.email} exists already (emails are unique across organizations)`,
    );
  const user = await users.create(tenant, {
    email: input.email,
    first_name: input.first_name,
    last_name: input.last_name,
    role: input.role,
    status: 'active',
    password_hash: await hashPassword(password),
  });
  return { user, password };
}

/** What a new user needs to read: how to sign in, and that the password is shown once. */
export function signInLines(user: User, password: string): string[] {
  return [
    `user: ${user.id} (${user.role})`,
    `email: ${user.email}`,
    `password: ${password}`,
    'This is the only time the password is shown. Sign in and change it.',
  ];
}

export function userJson(user: User, password: string): Record<string, unknown> {
  return {
    id: user.id,
    organization_id: user.organization_id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    role: user.role,
    password,
  };
}

interface UserCreateOptions {
  org: string;
  email: string;
  role: Role;
  firstName: string;
  lastName: string;
  json?: boolean;
}

export function userCommand(): Command {
  const user = new Command('user').description('manage users of the user API and the console');
  user
    .command('create')
    .description('create a user with a generated password, printed once')
    .requiredOption('--org <id>', 'organization id (org_…)')
    .requiredOption('--email <email>', 'email address (unique across organizations)')
    .addOption(new Option('--role <role>', 'role').choices([...ASSIGNABLE_ROLES]).default('viewer'))
    .option('--first-name <name>', 'first name', 'Admin')
    .option('--last-name <name>', 'last name', 'User')
    .option('--json', 'print the user and the password as JSON')
    .action(
      adminAction('user create', async (options: UserCreateOptions) => {
        const created = await withDal(async (dal, _changed, { users }) => {
          const tenant: TenantContext = { organizationId: options.org, environment: 'live' };
          if (!(await dal.organizations.get(tenant)))
            throw new AdminInputError(`organization ${options.org} not found`);
          return createUserWithPassword(users, tenant, options);
        });
        print(options.json, userJson(created.user, created.password), signInLines(created.user, created.password));
      }),
    );
  return user;
}
