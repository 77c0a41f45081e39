/**
 * `leadstream org create --name <n> [--owner-email <e>]`: creates an organization and prints its
 * id; with an owner email, also its owner, whose generated password is printed once.
 * `leadstream org list`: every organization, one per line (id, plan, name).
 */
import { Command, Option } from 'commander';
import type { OrganizationPlan } from '@leadstream/dal';
import { stripBidiControls } from '@leadstream/domain';
import { adminAction, AdminInputError, print, withDal } from './admin-context';
import { createUserWithPassword, signInLines, userJson } from './user.command';

interface OrgCreateOptions {
  name: string;
  plan: OrganizationPlan;
  ownerEmail?: string;
  ownerFirstName: string;
  ownerLastName: string;
  json?: boolean;
}

export function orgCommand(): Command {
  const org = new Command('org').description('manage organizations');
  org
    .command('create')
    .description('create an organization and print its id (with --owner-email, also its owner and a one-time password)')
    .requiredOption('--name <name>', 'organization name (2-100 characters)')
    .addOption(
      new Option('--plan <plan>', 'plan, sets the funnel rate limit')
        .choices(['education', 'enterprise'])
        .default('education'),
    )
    .option('--owner-email <email>', 'also create the owner, who signs in with this email and the printed password')
    .option('--owner-first-name <name>', "the owner's first name, as the console shows it", 'Admin')
    .option('--owner-last-name <name>', "the owner's last name", 'User')
    .option('--json', 'print the organization (and the owner) as JSON')
    .action(
      adminAction('org create', async (options: OrgCreateOptions) => {
        // As the API reads names: without bidirectional-text controls (docs/console.md, "User text").
        const name = stripBidiControls(options.name).trim();
        // organization_name is 2-100 characters, as registration requires (docs/api-conventions.md
        // "Limits").
        if (name.length < 2 || name.length > 100) throw new AdminInputError('--name must be 2-100 characters');
        const created = await withDal(async (dal, _changed, { users }) => {
          // The owner's email is checked first, so a taken one leaves no organization behind.
          if (options.ownerEmail !== undefined && (await users.findByEmail(options.ownerEmail))) {
            throw new AdminInputError(
              `a user with the email ${options.ownerEmail} exists already (emails are unique across organizations)`,
            );
          }
          const organization = await dal.organizations.create({ name, plan: options.plan });
          if (options.ownerEmail === undefined) return { organization, owner: undefined };
          const tenant = { organizationId: organization.id, environment: 'live' as const };
          try {
            return {
              organization,
              owner: await createUserWithPassword(users, tenant, {
                email: options.ownerEmail,
                role: 'owner',
                firstName: options.ownerFirstName,
                lastName: options.ownerLastName,
              }),
            };
          } catch (error) {
            await dal.organizations.markDeleted(tenant);
            throw error;
          }
        });
        const { organization, owner } = created;
        if (!owner) print(options.json, organization, [organization.id]);
        else
          print(options.json, { ...organization, owner: userJson(owner.user, owner.password) }, [
            organization.id,
            ...signInLines(owner.user, owner.password),
          ]);
      }),
    );
  org
    .command('list')
    .description('list organizations: id, plan, name')
    .option('--json', 'print the organizations as a JSON array')
    .action(
      adminAction('org list', async (options: { json?: boolean }) => {
        const organizations = await withDal((dal) => dal.organizations.listAll());
        print(
          options.json,
          organizations,
          organizations.length === 0
            ? ['no organizations yet: leadstream org create --name <name> --owner-email <email>']
            : organizations.map((o) => `${o.id}  ${o.plan.padEnd(10)}  ${o.name}`),
        );
      }),
    );
  return org;
}
