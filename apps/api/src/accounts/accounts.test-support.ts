/**
 * A real API server for the accounts tests: the production `createApiApp` on 127.0.0.1:0 with
 * the embedded log and store in a temp dir, and a mailer that keeps what it sends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountTokenRepository, createDal, ensureIndexes, LeadRepository, SessionRepository, UserRepository, type Dal } from '@leadstream/dal';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { nodeHandler } from '@leadstream/http';
import type { Analytics, DocumentStore, EventLog, Mailer, MailMessage } from '@leadstream/ports';
import { Metrics } from '@leadstream/runtime';
import type Koa from 'koa';
import { pino } from 'pino';
import { createApiApp } from '../api.app';
import { DecisionWaiter } from '../ingestion/decision-waiter';
import type { AccountsConfig } from './accounts.context';

export const TEST_JWT_SECRET = 'test-secret-of-at-least-32-characters!';

export class CapturingMailer implements Mailer {
  readonly transport = 'outbox' as const;
  readonly sent: MailMessage[] = [];
  failNext = false;

  async send(message: MailMessage): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('SMTP server unavailable');
    }
    this.sent.push(message);
  }

  async close(): Promise<void> {}

  /** Waits for a mail to `to` (forgot-password sends after answering) and returns the token of its link. */
  async tokenFor(to: string, page: 'reset-password' | 'accept-invite', since = 0, timeoutMs = 5_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.sent.slice(since).reverse().find((message) => message.to === to && message.text.includes(`/${page}?token=`));
      const token = mail ? new RegExp(`/${page}\\?token=([A-Za-z0-9_%-]+)`).exec(mail.text)?.[1] : undefined;
      if (token) return decodeURIComponent(token);
      if (Date.now() > deadline) throw new Error(`no ${page} mail to ${to}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

export interface AccountsTestServer {
  url: string;
  app: Koa;
  store: DocumentStore;
  log: EventLog;
  dal: Dal;
  mailer: Mailer;
  close(): Promise<void>;
}

export interface AccountsTestOptions {
  mailer?: Mailer;
  rateLimits?: AccountsConfig['rateLimits'];
  /** An existing store (e.g. FerretDB); the test server then does not close it. */
  store?: DocumentStore;
  clock?: () => Date;
}

/** Analytics is not used by the accounts routes; any call is a test bug. */
const noAnalytics = new Proxy({} as Analytics, {
  get(_target, property) {
    if (property === 'then') return undefined;
    throw new Error(`analytics.${String(property)} is not available in the accounts tests`);
  },
});

export async function startAccountsServer(options: AccountsTestOptions = {}): Promise<AccountsTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'leadstream-accounts-'));
  const store = options.store ?? (await openEmbeddedStore({ dataDir: join(dir, 'store') }));
  const log = await openEmbeddedLog({ dataDir: join(dir, 'log') });
  await log.ensureTopics([{ topic: 'leads.events', partitions: 1 }, { topic: 'leads.decisions', partitions: 1 }, { topic: 'leads.submitted', partitions: 1 }]);
  await ensureIndexes(store);
  await UserRepository.ensureIndexes(store);
  await SessionRepository.ensureIndexes(store);
  await AccountTokenRepository.ensureIndexes(store);
  const dal = createDal(store);
  const mailer = options.mailer ?? new CapturingMailer();
  const app = createApiApp({
    log,
    store,
    analytics: noAnalytics,
    logger: pino({ level: 'silent' }),
    metrics: new Metrics(),
    readiness: [],
    isStopping: () => false,
    dal,
    leads: new LeadRepository(store),
    waiter: new DecisionWaiter(log),
    decisionTimeoutMs: 1_000,
    accounts: { jwtSecret: TEST_JWT_SECRET, appUrl: 'https://app.test/', mailer, rateLimits: options.rateLimits ?? { authentication: 1_000, generalApi: 1_000 }, ...(options.clock ? { clock: options.clock } : {}) },
  });
  const server: Server = createServer(nodeHandler(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    store,
    log,
    dal,
    mailer,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await log.close();
      if (!options.store) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A small client for the user API. */
export class UserApi {
  constructor(
    readonly base: string,
    public token?: string,
  ) {}

  async call(method: string, path: string, body?: unknown, token = this.token): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: response.headers };
  }

  async register(email: string, organization = 'State University', password = 'Passw0rd!'): Promise<{ token: string; user: Record<string, unknown> }> {
    const { status, body } = await this.call('POST', '/api/auth/register', { email, password, first_name: 'Ann', last_name: 'Lee', organization_name: organization });
    if (status !== 201) throw new Error(`register ${email}: ${status} ${JSON.stringify(body)}`);
    return body as { token: string; user: Record<string, unknown> };
  }

  /** Registers an owner and returns a client signed in as them. */
  static async owner(base: string, email: string, organization?: string): Promise<UserApi & { userId: string; organizationId: string }> {
    const api = new UserApi(base);
    const { token, user } = await api.register(email, organization);
    api.token = token;
    return Object.assign(api, { userId: String(user['id']), organizationId: String(user['organization_id']) });
  }

  /** Creates a user with a role in the owner's organization and returns a client signed in as them. */
  async member(email: string, role: string, password = 'Passw0rd!'): Promise<UserApi & { userId: string }> {
    const created = await this.call('POST', '/api/users', { email, password, first_name: 'Bo', last_name: 'Ray', role });
    if (created.status !== 201) throw new Error(`create ${role}: ${created.status} ${JSON.stringify(created.body)}`);
    const login = await this.call('POST', '/api/auth/login', { email, password }, undefined);
    if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${JSON.stringify(login.body)}`);
    return Object.assign(new UserApi(this.base, String(login.body['token'])), { userId: String(created.body['id']) });
  }
}
