/**
 * `leadstream demo`: seeds an organization, an inquiry and an application vendor with live and
 * sandbox keys, starts the whole service in this process (the `start` role), streams realistic
 * synthetic leads to itself over HTTP and prints every answer, then a summary by outcome. Exits
 * by itself unless `--keep-running`. MX checks are off unless MX_CHECK says otherwise, so the demo
 * works offline.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDal, FunnelLinkRepository, UserRepository, type Dal } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';
import { DataDirLockedError, EmbeddedLog } from '@leadstream/engine-embedded-log';
import { Metrics } from '@leadstream/runtime';
import { destination, pino } from 'pino';
import { parseConfig, type Config } from '../config';
import { openEngines } from '../engines';
import { createUserWithPassword } from '../admin/user.command';
import { ensureAllIndexes } from '../indexes';
import { runRole } from '../roles';
import { demoScenarios, type DemoKeys, type DemoLead } from './demo-leads';

export interface DemoOptions {
  keepRunning?: boolean;
  leads?: string;
}

interface Seeded extends DemoKeys {
  organizationId: string;
  /** The organization's owner, who signs in to the user API with the generated password. */
  owner: { email: string; password: string };
  inquiryVendorId: string;
  applicationVendorId: string;
}

async function freePort(host: string): Promise<number> {
  const server = createServer();
  server.listen(0, host);
  await once(server, 'listening');
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

async function seed(dal: Dal, links: FunnelLinkRepository, users: UserRepository): Promise<Seeded> {
  const organization = await dal.organizations.create({ name: 'Demo State University', plan: 'education' });
  // Emails are unique across organizations: each demo run's owner gets its own.
  const ownerEmail = `owner-${organization.id.slice(4, 12).toLowerCase()}@demo-state.example.edu`;
  const owner = await createUserWithPassword(
    users,
    { organizationId: organization.id, environment: 'live' },
    { email: ownerEmail, role: 'owner', firstName: 'Demo', lastName: 'Owner' },
  );
  const live: TenantContext = { organizationId: organization.id, environment: 'live' };
  const sandbox: TenantContext = { organizationId: organization.id, environment: 'sandbox' };
  const inquiry = await dal.vendors.create(live, {
    name: 'CollegeSearch Leads',
    type: 'inquiry',
    group: null,
    contact_email: 'ops@collegesearch.example',
  });
  const application = await dal.vendors.create(live, {
    name: 'ApplyNow Partners',
    type: 'application',
    group: null,
    contact_email: 'team@applynow.example',
  });
  // The funnel counts an application by someone who inquired within 72 hours as a conversion.
  await links.create(
    organization.id,
    randomUUID(),
    { inquiryVendorId: inquiry.id, applicationVendorId: application.id, timeWindowHours: 72 },
    new Date(),
  );
  const key = async (tenant: TenantContext, vendorId: string) =>
    (
      await dal.apiKeys.create(tenant, {
        vendorId,
        name: 'demo',
        permissions: ['read', 'write'],
        ipRestrictions: [],
        rateLimit: null,
      })
    ).key;
  return {
    organizationId: organization.id,
    owner: { email: owner.user.email, password: owner.password },
    inquiryVendorId: inquiry.id,
    applicationVendorId: application.id,
    inquiryLive: await key(live, inquiry.id),
    inquirySandbox: await key(sandbox, inquiry.id),
    applicationLive: await key(live, application.id),
  };
}

/** The demo cannot run here; its message is the one line `leadstream demo` prints before exiting 1. */
export class DemoRefusedError extends Error {
  override readonly name = 'DemoRefusedError';
}

/**
 * On the embedded engines the service needs DATA_DIR's lock (the embedded log's), so a demo beside
 * a running server must stop before it seeds anything. Takes the lock and returns its release:
 * held while seeding, given back just before the service opens the log in this same process.
 * Kafka has no such lock.
 */
function lockDataDirForSeeding(config: Config): () => Promise<void> {
  if (config.kafka) return async () => {};
  const logDir = join(config.dataDir, 'log');
  try {
    const probe = EmbeddedLog.open({ dataDir: logDir });
    return () => probe.close();
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    let holder = 'another process';
    try {
      holder = `another process (${readFileSync(join(logDir, 'LOCK'), 'utf8').trim()})`;
    } catch {
      // The LOCK file only names the holder; the lock itself is SQLite's.
    }
    throw new DemoRefusedError(
      `DATA_DIR ${config.dataDir} is in use by ${holder}, such as a running leadstream start; nothing was written. Stop it, or run the demo with another DATA_DIR.`,
    );
  }
}

const write = (text = ''): void => {
  process.stdout.write(`${text}\n`);
};

function outcomeOf(status: number, body: Record<string, unknown>): string {
  if (status === 201)
    return Array.isArray(body['warnings']) || Array.isArray(body['flags']) ? 'accepted with warnings' : 'accepted';
  if (status === 202) return 'processing';
  if (status === 409) return 'duplicate';
  if (status === 422) return `rejected: ${typeof body['reason'] === 'string' ? body['reason'] : 'rule'}`;
  if (status === 400) return 'invalid';
  return `HTTP ${status}`;
}

const cut = (text: string, width: number): string =>
  text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);

export async function runDemo(options: DemoOptions, env: NodeJS.ProcessEnv): Promise<void> {
  const count = options.leads === undefined ? 60 : Number(options.leads);
  if (!Number.isInteger(count) || count < 12 || count > 1000)
    throw new Error('--leads must be a whole number from 12 to 1000');
  const base = parseConfig(env);
  const port = env['PORT'] ? base.port : await freePort(base.host);
  const demoEnv: NodeJS.ProcessEnv = {
    ...env,
    PORT: String(port),
    LOG_LEVEL: env['LOG_LEVEL'] ?? 'warn',
    MX_CHECK: env['MX_CHECK'] ?? 'off',
  };
  const config = parseConfig(demoEnv);

  // Seed before the service opens DATA_DIR (only the store is needed), but only once DATA_DIR is
  // known to be free: beside a running server the demo would seed and then fail on the lock.
  const release = lockDataDirForSeeding(config);
  let seeded: Seeded;
  try {
    const engines = await openEngines(
      config,
      pino({ level: 'warn' }, destination(2)),
      new Metrics({ defaultMetrics: false }),
      { store: true },
    );
    try {
      await ensureAllIndexes(engines.store);
      seeded = await seed(
        createDal(engines.store),
        new FunnelLinkRepository(engines.store),
        new UserRepository(engines.store),
      );
    } finally {
      await engines.close();
    }
  } finally {
    await release();
  }

  await runRole('start', {}, demoEnv);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  write(`leadstream demo — service at ${url} (DATA_DIR ${config.dataDir})`);
  write(`organization         ${seeded.organizationId}`);
  write(`web console          ${url}/app/  (sign in as the owner below)`);
  write(`owner sign-in        ${seeded.owner.email}  password ${seeded.owner.password}  (POST ${url}/api/auth/login)`);
  write(`inquiry vendor       ${seeded.inquiryVendorId}  live key    ${seeded.inquiryLive}`);
  write(`                     ${' '.repeat(seeded.inquiryVendorId.length)}  sandbox key ${seeded.inquirySandbox}`);
  write(`application vendor   ${seeded.applicationVendorId}  live key    ${seeded.applicationLive}`);
  write();
  write(`${'#'.padStart(3)}  ${cut('scenario', 26)} ${cut('vendor', 18)} HTTP  answer`);

  const outcomes = new Map<string, number>();
  const scenarios: DemoLead[] = demoScenarios(count, seeded);
  for (const [index, lead] of scenarios.entries()) {
    const response = await fetch(`${url}${lead.sandbox ? '/sandbox' : ''}/api/v1/leads/ingest`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${lead.key}`, 'Content-Type': 'application/json' },
      // A person takes 45 s or so to fill the form in; the too-fast scenario says otherwise.
      body: JSON.stringify({
        ...lead.body,
        form_started_at: new Date(Date.now() - (lead.formAgeMs ?? 45_000 + index * 1_000)).toISOString(),
      }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    const outcome = outcomeOf(response.status, body);
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    const { timestamp: _timestamp, ...shown } = body;
    write(
      `${String(index + 1).padStart(3)}  ${cut(lead.scenario, 26)} ${cut(lead.vendor, 18)} ${String(response.status).padEnd(5)} ${cut(JSON.stringify(shown), 110).trimEnd()}`,
    );
  }

  write();
  write('summary by outcome');
  for (const [outcome, n] of [...outcomes.entries()].sort((a, b) => b[1] - a[1]))
    write(`  ${cut(outcome, 34)} ${String(n).padStart(4)}`);
  write(`  ${cut('total', 34)} ${String(scenarios.length).padStart(4)}`);
  write();
  write(`vendor portal: curl -H 'Authorization: Bearer ${seeded.inquiryLive}' ${url}/api/vendor-portal/daily-stats`);
  write(`funnel:        curl -H 'Authorization: Bearer ${seeded.inquiryLive}' ${url}/api/analytics/funnel/overview`);

  if (options.keepRunning) {
    write('the service keeps running (--keep-running); stop it with Ctrl-C');
    return;
  }
  // The start role stops gracefully on SIGTERM and exits with code 0.
  process.kill(process.pid, 'SIGTERM');
}
