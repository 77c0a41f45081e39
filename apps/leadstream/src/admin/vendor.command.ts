/**
 * `leadstream vendor create --org <id> --name <n> --type inquiry|application`: prints the vendor id.
 * `leadstream vendor list --org <id>`: the organization's vendors (id, type, enabled, name).
 */
import { Command, Option } from 'commander';
import { VENDOR_TYPES, type VendorType } from '@leadstream/dal';
import { MAX_COST_PER_LEAD, stripBidiControls, type TenantContext } from '@leadstream/domain';
import { adminAction, AdminInputError, print, withDal } from './admin-context';

interface VendorCreateOptions {
  org: string;
  name: string;
  type: VendorType;
  group?: string;
  email?: string;
  costPerLead?: string;
  json?: boolean;
}

/** Deliberately loose: one @, no spaces, a dot in the domain. The address is for people to read. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function vendorCommand(): Command {
  const vendor = new Command('vendor').description('manage vendors (lead sources)');
  vendor
    .command('create')
    .description('create a vendor in an organization and print its id')
    .requiredOption('--org <id>', 'organization id (org_…)')
    .requiredOption('--name <name>', 'vendor name')
    .addOption(new Option('--type <type>', 'vendor type').choices([...VENDOR_TYPES]).makeOptionMandatory())
    .option('--group <group>', 'vendor group')
    .option('--email <email>', 'contact email')
    .option('--cost-per-lead <amount>', 'what a lead from this vendor costs, for the vendor ROI report')
    .option('--json', 'print the vendor as JSON')
    .action(
      adminAction('vendor create', async (options: VendorCreateOptions) => {
        // As the API reads names: without bidirectional-text controls (docs/console.md, "User text").
        const name = stripBidiControls(options.name).trim();
        if (name === '') throw new AdminInputError('--name must not be empty');
        if (options.email !== undefined && !EMAIL.test(options.email))
          throw new AdminInputError(`--email is not an email address: "${options.email}"`);
        const cost = options.costPerLead === undefined ? null : Number(options.costPerLead);
        if (cost !== null && (!/^\d+(\.\d+)?$/.test(options.costPerLead ?? '') || cost > MAX_COST_PER_LEAD))
          throw new AdminInputError(
            `--cost-per-lead must be an amount from 0 to ${MAX_COST_PER_LEAD}, got "${options.costPerLead}"`,
          );
        const created = await withDal(async (dal, changed) => {
          // Vendors serve both environments; the environment here only completes the context.
          const tenant: TenantContext = { organizationId: options.org, environment: 'live' };
          if (!(await dal.organizations.get(tenant)))
            throw new AdminInputError(`organization ${options.org} not found`);
          const vendor = await dal.vendors.create(tenant, {
            name,
            type: options.type,
            group: options.group ?? null,
            contact_email: options.email ?? null,
            cost_per_lead: cost,
          });
          await changed(options.org, 'vendors');
          return vendor;
        });
        print(options.json, created, [created.id]);
      }),
    );
  vendor
    .command('list')
    .description("list an organization's vendors: id, type, enabled or disabled, name")
    .requiredOption('--org <id>', 'organization id (org_…)')
    .option('--json', 'print the vendors as a JSON array')
    .action(
      adminAction('vendor list', async (options: { org: string; json?: boolean }) => {
        const vendors = await withDal(async (dal) => {
          const tenant: TenantContext = { organizationId: options.org, environment: 'live' };
          if (!(await dal.organizations.get(tenant)))
            throw new AdminInputError(`organization ${options.org} not found`);
          return dal.vendors.list(tenant);
        });
        const lines = vendors.map(
          (v) => `${v.id}  ${v.type.padEnd(11)}  ${(v.enabled ? 'enabled' : 'disabled').padEnd(8)}  ${v.name}`,
        );
        print(
          options.json,
          vendors,
          lines.length === 0
            ? [`no vendors yet: leadstream vendor create --org ${options.org} --name <name> --type inquiry`]
            : lines,
        );
      }),
    );
  return vendor;
}
