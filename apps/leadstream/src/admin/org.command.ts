/** `leadstream org create --name <n>`: creates an organization and prints its id. */
import { Command, Option } from 'commander';
import type { OrganizationPlan } from '@leadstream/dal';
import { adminAction, AdminInputError, print, withDal } from './admin-context';

interface OrgCreateOptions {
  name: string;
  plan: OrganizationPlan;
  json?: boolean;
}

export function orgCommand(): Command {
  const org = new Command('org').description('manage organizations');
  org
    .command('create')
    .description('create an organization and print its id')
    .requiredOption('--name <name>', 'organization name (2-100 characters)')
    .addOption(new Option('--plan <plan>', 'plan, sets the funnel rate limit').choices(['education', 'enterprise']).default('education'))
    .option('--json', 'print the organization as JSON')
    .action(
      adminAction('org create', async (options: OrgCreateOptions) => {
        const name = options.name.trim();
        // Spec 8: organization_name is 2-100 characters.
        if (name.length < 2 || name.length > 100) throw new AdminInputError('--name must be 2-100 characters');
        const organization = await withDal((dal) => dal.organizations.create({ name, plan: options.plan }));
        print(options.json, organization, [organization.id]);
      }),
    );
  return org;
}
