/**
 * `leadstream key create --org <id> --vendor <id> [...]`: issues an API key for a vendor. The full
 * key is printed once and cannot be shown again (only its hash is stored; docs/api-conventions.md
 * "Authentication").
 */
import { Command } from 'commander';
import {
  DEFAULT_API_KEY_PERMISSIONS,
  parsePermissions,
  validateIpRestrictions,
  type TenantContext,
} from '@leadstream/domain';
import { adminAction, AdminInputError, print, withDal } from './admin-context';

interface KeyCreateOptions {
  org: string;
  vendor: string;
  name: string;
  sandbox?: boolean;
  permissions: string;
  ip?: string;
  rateLimit?: string;
  json?: boolean;
}

const list = (value: string): string[] =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

function rateLimitOption(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 1_000_000)
    throw new AdminInputError(`--rate-limit must be a whole number of requests per minute (1-1000000), got "${raw}"`);
  return value;
}

export function keyCommand(): Command {
  const key = new Command('key').description('manage vendor API keys');
  key
    .command('create')
    .description('issue an API key for a vendor; the full key is printed once')
    .requiredOption('--org <id>', 'organization id (org_…)')
    .requiredOption('--vendor <id>', 'vendor id')
    .option('--name <name>', 'key name', 'default')
    .option('--sandbox', 'issue a sandbox key (vk_test_) instead of a production key (vk_live_)')
    .option('--permissions <list>', 'comma-separated: read, write', DEFAULT_API_KEY_PERMISSIONS.join(','))
    .option('--ip <list>', 'comma-separated IP addresses or CIDR ranges allowed to use the key (default: any)')
    .option('--rate-limit <n>', 'requests per minute, replacing the default limits')
    .option('--json', 'print the key and its record as JSON')
    .action(
      adminAction('key create', async (options: KeyCreateOptions) => {
        const permissions = parsePermissions(list(options.permissions));
        const ipRestrictions = validateIpRestrictions(list(options.ip ?? ''));
        const rateLimit = rateLimitOption(options.rateLimit);
        const name = options.name.trim();
        if (name === '') throw new AdminInputError('--name must not be empty');
        const tenant: TenantContext = {
          organizationId: options.org,
          environment: options.sandbox ? 'sandbox' : 'live',
        };
        const issued = await withDal(async (dal, changed) => {
          if (!(await dal.organizations.get(tenant)))
            throw new AdminInputError(`organization ${options.org} not found`);
          if (!(await dal.vendors.findById(tenant, options.vendor)))
            throw new AdminInputError(`vendor ${options.vendor} not found in organization ${options.org}`);
          const created = await dal.apiKeys.create(tenant, {
            vendorId: options.vendor,
            name,
            permissions,
            ipRestrictions,
            rateLimit,
          });
          await changed(options.org, 'api_keys');
          return created;
        });
        const { apiKey } = issued;
        print(
          options.json,
          {
            key: issued.key,
            id: apiKey.id,
            key_preview: apiKey.key_preview,
            organization_id: apiKey.organization_id,
            vendor_id: apiKey.vendor_id,
            environment: apiKey.environment,
            name: apiKey.name,
            permissions: apiKey.permissions,
            ip_restrictions: apiKey.ip_restrictions,
            rate_limit: apiKey.rate_limit,
            created_at: apiKey.created_at,
          },
          [
            issued.key,
            `id: ${apiKey.id}`,
            `preview: ${apiKey.key_preview}`,
            'This is the only time the full key is shown. Store it now.',
          ],
        );
      }),
    );
  return key;
}
