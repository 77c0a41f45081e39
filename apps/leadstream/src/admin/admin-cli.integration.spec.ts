/**
 * The admin commands as a user runs them: the real `leadstream` command in a child process on a
 * temp DATA_DIR. The test holds the same embedded store open the whole time, as a running server
 * would, and reads what the commands wrote through the repositories.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDal, UserRepository, type Dal } from '@leadstream/dal';
import { hashApiKey, passwordWeakness, verifyPassword } from '@leadstream/domain';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { DocumentStore } from '@leadstream/ports';
import { STAGES } from '@leadstream/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLine } from '../test-support/cli-process';

const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-admin-'));

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function leadstream(...args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, commandLine(args), {
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
    vendorId = await succeed(
      'vendor',
      'create',
      '--org',
      orgId,
      '--name',
      'Acme Leads',
      '--type',
      'application',
      '--group',
      'paid',
      '--email',
      'ops@acme.test',
    );
    expect(vendorId).toMatch(/^[0-9a-f-]{36}$/);
    const tenant = { organizationId: orgId, environment: 'live' as const };
    expect(await dal.organizations.get(tenant)).toMatchObject({ name: 'State University', plan: 'education' });
    expect(await dal.vendors.findById(tenant, vendorId)).toMatchObject({
      name: 'Acme Leads',
      type: 'application',
      group: 'paid',
      contact_email: 'ops@acme.test',
      enabled: true,
    });
  });

  it('issues a live key once, as JSON, stored only as its hash with the given settings', async () => {
    const printed = JSON.parse(
      await succeed(
        'key',
        'create',
        '--org',
        orgId,
        '--vendor',
        vendorId,
        '--name',
        'crm feed',
        '--permissions',
        'read,write',
        '--ip',
        '1.2.3.4, 10.0.0.0/8',
        '--rate-limit',
        '7',
        '--json',
      ),
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
    expect(JSON.stringify(await store.collection('api_keys').findOne({ _id: String(printed['id']) }))).not.toContain(
      key.slice(8),
    );
  });

  it('issues a sandbox key in text form: the key, its id and preview', async () => {
    const [key, idLine, previewLine, warning] = (
      await succeed('key', 'create', '--org', orgId, '--vendor', vendorId, '--sandbox')
    ).split('\n');
    expect(key).toMatch(/^vk_test_/);
    const stored = await dal.apiKeys.findByHash(hashApiKey(key ?? ''));
    expect(stored).toMatchObject({
      environment: 'sandbox',
      permissions: ['read', 'write'],
      ip_restrictions: [],
      rate_limit: null,
      name: 'default',
    });
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
    const otherVendor = await leadstream(
      'key',
      'create',
      '--org',
      orgId,
      '--vendor',
      '00000000-0000-4000-8000-000000000000',
    );
    expect(otherVendor.code).toBe(2);
    expect(otherVendor.stderr).toContain('not found in organization');
    const badPermission = await leadstream(
      'key',
      'create',
      '--org',
      orgId,
      '--vendor',
      vendorId,
      '--permissions',
      'admin',
    );
    expect(badPermission.code).toBe(2);
    expect(badPermission.stderr).toContain('unknown: admin');
    expect((await leadstream('key', 'create', '--org', orgId, '--vendor', vendorId, '--rate-limit', '0')).code).toBe(2);
    expect((await leadstream('org', 'create', '--name', 'x')).code).toBe(2);
    expect((await leadstream('vendor', 'create', '--org', orgId, '--name', 'x', '--type', 'broker')).stderr).toContain(
      'Allowed choices are inquiry, application',
    );
    expect((await dal.apiKeys.list({ organizationId: orgId, environment: 'live' })).length).toBe(1);
  });
});

describe('leadstream org create --owner-email / user create / org list / vendor list', () => {
  const users = (): UserRepository => new UserRepository(store);

  it('creates an organization with its owner, whose printed one-time password signs in', async () => {
    const [orgId, userLine, emailLine, passwordLine, warning] = (
      await succeed('org', 'create', '--name', 'Hill College', '--owner-email', 'Dean@Hill.edu')
    ).split('\n');
    expect(orgId).toMatch(/^org_/);
    const owner = await users().findByEmail('dean@hill.edu');
    expect(owner).toMatchObject({
      organization_id: orgId,
      role: 'owner',
      status: 'active',
      email: 'Dean@hill.edu',
      first_name: 'Admin',
      last_name: 'User',
    });
    expect(userLine).toBe(`user: ${owner?.id} (owner)`);
    expect(emailLine).toBe('email: Dean@hill.edu');
    const password = (passwordLine ?? '').replace(/^password: /, '');
    expect(passwordWeakness(password)).toBeNull();
    expect(await verifyPassword(password, owner?.password_hash ?? '')).toBe(true);
    expect(warning).toContain('only time');
  });

  it('names the owner with --owner-first-name and --owner-last-name, and refuses a name no user may have', async () => {
    const printed = JSON.parse(
      await succeed(
        'org',
        'create',
        '--name',
        'Vale College',
        '--owner-email',
        'ada@vale.edu',
        '--owner-first-name',
        'Ada',
        '--owner-last-name',
        'Lovelace',
        '--json',
      ),
    ) as { id: string; owner: Record<string, unknown> };
    expect(printed.owner).toMatchObject({
      organization_id: printed.id,
      email: 'ada@vale.edu',
      role: 'owner',
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    expect(await users().findByEmail('ada@vale.edu')).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
    const before = (await dal.organizations.listAll()).length;
    const unnamed = await leadstream(
      'org',
      'create',
      '--name',
      'Blank College',
      '--owner-email',
      'blank@vale.edu',
      '--owner-first-name',
      ' ',
    );
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('first_name');
    expect((await dal.organizations.listAll()).length).toBe(before);
  });

  it('refuses an owner email that is taken, leaving no organization behind', async () => {
    const before = (await dal.organizations.listAll()).length;
    const taken = await leadstream('org', 'create', '--name', 'Second Hill', '--owner-email', 'DEAN@hill.edu');
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('exists already');
    expect((await dal.organizations.listAll()).length).toBe(before);
  });

  /** The id of the organization `org create` made above; fails the test when there is none. */
  async function hillCollegeId(): Promise<string> {
    const hill = (await dal.organizations.listAll()).find((o) => o.name === 'Hill College');
    if (!hill) throw new Error('no organization named Hill College');
    return hill.id;
  }

  it('adds users with a role, as JSON, and names bad input', async () => {
    const orgId = await hillCollegeId();
    const printed = JSON.parse(
      await succeed(
        'user',
        'create',
        '--org',
        orgId,
        '--email',
        'viewer@hill.edu',
        '--role',
        'viewer',
        '--first-name',
        'Vi',
        '--last-name',
        'Ewer',
        '--json',
      ),
    ) as Record<string, unknown>;
    expect(printed).toMatchObject({
      organization_id: orgId,
      email: 'viewer@hill.edu',
      role: 'viewer',
      first_name: 'Vi',
      last_name: 'Ewer',
    });
    expect(
      await verifyPassword(
        String(printed['password']),
        (await users().findByEmail('viewer@hill.edu'))?.password_hash ?? '',
      ),
    ).toBe(true);
    const badEmail = await leadstream('user', 'create', '--org', orgId, '--email', 'not-an-email');
    expect(badEmail.code).toBe(2);
    expect(badEmail.stderr).toContain('email: must be a valid email address');
    expect((await leadstream('user', 'create', '--org', 'org_missing', '--email', 'x@hill.edu')).stderr).toContain(
      'organization org_missing not found',
    );
    expect(
      (await leadstream('user', 'create', '--org', orgId, '--email', 'v@hill.edu', '--role', 'vendor')).stderr,
    ).toContain('Allowed choices are owner, admin, manager, viewer');
  });

  it('makes a viewer when no --role is given (least privilege; the owner comes from org create), and says so in --help', async () => {
    const orgId = await hillCollegeId();
    const lines = (await succeed('user', 'create', '--org', orgId, '--email', 'colleague@hill.edu')).split('\n');
    const user = await users().findByEmail('colleague@hill.edu');
    expect(user).toMatchObject({ organization_id: orgId, role: 'viewer', status: 'active' });
    expect(lines[0]).toBe(`user: ${user?.id} (viewer)`);
    expect(await succeed('user', 'create', '--help')).toMatch(
      /--role <role>\s+role \(choices: "owner", "admin", "manager", "viewer",\s+default: "viewer"\)/,
    );
  });

  it('lists organizations and vendors, as text and JSON', async () => {
    const organizations = await dal.organizations.listAll();
    expect((await succeed('org', 'list')).split('\n')).toEqual(
      organizations.map((o) => `${o.id}  ${o.plan.padEnd(10)}  ${o.name}`),
    );
    expect((JSON.parse(await succeed('org', 'list', '--json')) as Array<{ id: string }>).map((o) => o.id)).toEqual(
      organizations.map((o) => o.id),
    );
    const hill = await hillCollegeId();
    expect(await succeed('vendor', 'list', '--org', hill)).toContain('no vendors yet');
    const vendorId = await succeed('vendor', 'create', '--org', hill, '--name', 'Hill Inquiries', '--type', 'inquiry');
    expect(await succeed('vendor', 'list', '--org', hill)).toBe(`${vendorId}  inquiry      enabled   Hill Inquiries`);
    expect(JSON.parse(await succeed('vendor', 'list', '--org', hill, '--json'))).toMatchObject([
      { id: vendorId, name: 'Hill Inquiries', type: 'inquiry' },
    ]);
  });
});

describe('leadstream worker', () => {
  it('lists the stages in its help, and refuses an unknown stage in one line with exit code 2', async () => {
    const help = await succeed('worker', '--help');
    for (const stage of STAGES.keys()) expect(help).toContain(stage);
    const unknown = await leadstream('worker', '--stages', 'validate,nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toEqual([expect.stringContaining('unknown stage "nope"')]);
  });
});
