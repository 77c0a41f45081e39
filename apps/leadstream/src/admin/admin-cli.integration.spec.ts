/**
 * The admin commands as a user runs them: the real `leadstream` command in a child process on a
 * temp DATA_DIR. The test holds the same embedded store open the whole time, as a running server
 * would, and reads what the commands wrote through the repositories.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDal, type Dal } from '@leadstream/dal';
import { hashApiKey } from '@leadstream/domain';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { DocumentStore } from '@leadstream/ports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-admin-'));

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function leadstream(...args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function succeed(...args: string[]): Promise<string> {
  const result = await leadstream(...args);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim();
}

let store: DocumentStore;
let dal: Dal;

beforeAll(async () => {
  // Opened before any command runs and kept open: the commands must work beside it.
  store = await openEmbeddedStore({ dataDir: join(dataDir, 'store') });
  dal = createDal(store);
});

afterAll(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('leadstream org / vendor / key create', () => {
  let orgId: string;
  let vendorId: string;

  it('creates an organization and a vendor, printing their ids', async () => {
    orgId = await succeed('org', 'create', '--name', 'State University');
    expect(orgId).toMatch(/^org_[0-9A-Za-z]{24}$/);
    vendorId = await succeed('vendor', 'create', '--org', orgId, '--name', 'Acme Leads', '--type', 'application', '--group', 'paid', '--email', 'ops@acme.test');
    expect(vendorId).toMatch(/^[0-9a-f-]{36}$/);
    const tenant = { organizationId: orgId, environment: 'live' as const };
    expect(await dal.organizations.get(tenant)).toMatchObject({ name: 'State University', plan: 'education' });
    expect(await dal.vendors.findById(tenant, vendorId)).toMatchObject({ name: 'Acme Leads', type: 'application', group: 'paid', contact_email: 'ops@acme.test', enabled: true });
  });

  it('issues a live key once, as JSON, stored only as its hash with the given settings', async () => {
    const printed = JSON.parse(
      await succeed('key', 'create', '--org', orgId, '--vendor', vendorId, '--name', 'crm feed', '--permissions', 'read,write', '--ip', '1.2.3.4, 10.0.0.0/8', '--rate-limit', '7', '--json'),
    ) as Record<string, unknown>;
    const key = String(printed['key']);
    expect(key).toMatch(/^vk_live_[0-9A-Za-z]{32}$/);
    const stored = await dal.apiKeys.findByHash(hashApiKey(key));
    expect(stored).toMatchObject({
      id: printed['id'],
      key_preview: printed['key_preview'],
      organization_id: orgId,
      vendor_id: vendorId,
      environment: 'live',
      name: 'crm feed',
      permissions: ['read', 'write'],
      ip_restrictions: ['1.2.3.4', '10.0.0.0/8'],
      rate_limit: 7,
      enabled: true,
    });
    expect(JSON.stringify(await store.collection('api_keys').findOne({ _id: String(printed['id']) }))).not.toContain(key.slice(8));
  });

  it('issues a sandbox key in text form: the key, its id and preview', async () => {
    const [key, idLine, previewLine, warning] = (await succeed('key', 'create', '--org', orgId, '--vendor', vendorId, '--sandbox')).split('\n');
    expect(key).toMatch(/^vk_test_/);
    const stored = await dal.apiKeys.findByHash(hashApiKey(key ?? ''));
    expect(stored).toMatchObject({ environment: 'sandbox', permissions: ['read', 'write'], ip_restrictions: [], rate_limit: null, name: 'default' });
    expect(idLine).toBe(`id: ${stored?.id}`);
    expect(previewLine).toBe(`preview: ${stored?.key_preview}`);
    expect(warning).toContain('only time');
  });

  it('refuses bad input with exit code 2 and a message naming it', async () => {
    const badIp = await leadstream('key', 'create', '--org', orgId, '--vendor', vendorId, '--ip', '1.2.3.4,nope');
    expect(badIp.code).toBe(2);
    expect(badIp.stderr).toContain('"nope" is not an IP address or CIDR range');
    const noOrg = await leadstream('vendor', 'create', '--org', 'org_missing', '--name', 'x', '--type', 'inquiry');
    expect(noOrg.code).toBe(2);
    expect(noOrg.stderr).toContain('organization org_missing not found');
    const otherVendor = await leadstream('key', 'create', '--org', orgId, '--vendor', '00000000-0000-4000-8000-000000000000');
    expect(otherVendor.code).toBe(2);
    expect(otherVendor.stderr).toContain('not found in organization');
    const badPermission = await leadstream('key', 'create', '--org', orgId, '--vendor', vendorId, '--permissions', 'admin');
    expect(badPermission.code).toBe(2);
    expect(badPermission.stderr).toContain('unknown: admin');
    expect((await leadstream('key', 'create', '--org', orgId, '--vendor', vendorId, '--rate-limit', '0')).code).toBe(2);
    expect((await leadstream('org', 'create', '--name', 'x')).code).toBe(2);
    expect((await leadstream('vendor', 'create', '--org', orgId, '--name', 'x', '--type', 'broker')).stderr).toContain('Allowed choices are inquiry, application');
    expect((await dal.apiKeys.list({ organizationId: orgId, environment: 'live' })).length).toBe(1);
  });
});
