/**
 * A real API server for the accounts tests: the API test server (`../api.test-support`) with a
 * mailer that keeps what it sends.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStore, Mailer, MailMessage } from '@leadstream/ports';
import { startApiTestServer, type ApiTestServer, type ApiTestServerOptions } from '../api.test-support';
import type { AccountsConfig } from './accounts.context';

export { TEST_JWT_SECRET } from '../api.test-support';

export class CapturingMailer implements Mailer {
  readonly transport = 'outbox' as const;
  readonly sent: MailMessage[] = [];
  failNext = false;
  /** Woken by every mail sent: `tokenFor` waits on this instead of polling. */
  private readonly waiting = new Set<() => void>();

  async send(message: MailMessage): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('SMTP server unavailable');
    }
    this.sent.push(message);
    for (const wake of [...this.waiting]) wake();
  }

  async close(): Promise<void> {}

  /** Waits for a mail to `to` (forgot-password sends after answering) and returns the token of its link. */
  async tokenFor(to: string, page: 'reset-password' | 'accept-invite', since = 0, timeoutMs = 5_000): Promise<string> {
    const found = (): string | undefined => {
      const mail = this.sent
        .slice(since)
        .reverse()
        .find((message) => message.to === to && message.text.includes(`/${page}?token=`));
      const token = mail ? new RegExp(`/${page}\\?token=([A-Za-z0-9_%-]+)`).exec(mail.text)?.[1] : undefined;
      return token === undefined ? undefined : decodeURIComponent(token);
    };
    const token = found();
    if (token !== undefined) return token;
    // Woken by each mail sent; the timer only bounds a wait for a mail that never comes.
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(wake);
        reject(new Error(`no ${page} mail to ${to}`));
      }, timeoutMs);
      const wake = (): void => {
        const sent = found();
        if (sent === undefined) return;
        clearTimeout(timer);
        this.waiting.delete(wake);
        resolve(sent);
      };
      this.waiting.add(wake);
    });
  }
}

export type AccountsTestServer = ApiTestServer;

export interface AccountsTestOptions {
  mailer?: Mailer;
  rateLimits?: AccountsConfig['rateLimits'];
  /** An existing store (e.g. FerretDB); the test server then does not close it. */
  store?: DocumentStore;
  clock?: () => Date;
  analytics?: ApiTestServerOptions['analytics'];
  repositories?: ApiTestServerOptions['repositories'];
}

export async function startAccountsServer(options: AccountsTestOptions = {}): Promise<AccountsTestServer> {
  return startApiTestServer({
    ...options,
    dir: mkdtempSync(join(tmpdir(), 'leadstream-accounts-')),
    mailer: options.mailer ?? new CapturingMailer(),
  });
}

/** A small client for the user API. */
export class UserApi {
  constructor(
    readonly base: string,
    public token?: string,
  ) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    token = this.token,
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      headers: response.headers,
    };
  }

  async register(
    email: string,
    organization = 'State University',
    password = 'Passw0rd!',
  ): Promise<{ token: string; user: Record<string, unknown> }> {
    const { status, body } = await this.call('POST', '/api/auth/register', {
      email,
      password,
      first_name: 'Ann',
      last_name: 'Lee',
      organization_name: organization,
    });
    if (status !== 201) throw new Error(`register ${email}: ${status} ${JSON.stringify(body)}`);
    return body as { token: string; user: Record<string, unknown> };
  }

  /** Registers an owner and returns a client signed in as them. */
  static async owner(
    base: string,
    email: string,
    organization?: string,
  ): Promise<UserApi & { userId: string; organizationId: string }> {
    const api = new UserApi(base);
    const { token, user } = await api.register(email, organization);
    api.token = token;
    return Object.assign(api, { userId: String(user['id']), organizationId: String(user['organization_id']) });
  }

  /** Creates a user with a role in the owner's organization and returns a client signed in as them. */
  async member(email: string, role: string, password = 'Passw0rd!'): Promise<UserApi & { userId: string }> {
    const created = await this.call('POST', '/api/users', {
      email,
      password,
      first_name: 'Bo',
      last_name: 'Ray',
      role,
    });
    if (created.status !== 201) throw new Error(`create ${role}: ${created.status} ${JSON.stringify(created.body)}`);
    const login = await this.call('POST', '/api/auth/login', { email, password }, undefined);
    if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${JSON.stringify(login.body)}`);
    return Object.assign(new UserApi(this.base, String(login.body['token'])), {
      userId: String(dataOf(created)['id']),
    });
  }
}

/** The documented 403 of a route whose permission the role lacks (docs/permissions.md). */
export function forbidden(
  role: string,
  permission: string,
): { status: 403; body: { error: { code: 'INSUFFICIENT_PERMISSIONS'; message: string } } } {
  return {
    status: 403,
    body: {
      error: { code: 'INSUFFICIENT_PERMISSIONS', message: `Your role (${role}) lacks the '${permission}' permission` },
    },
  };
}

/** The `{data}` of a user-API success body; fails the test when the body has another shape. */
export function dataOf(response: { status: number; body: Record<string, unknown> }): Record<string, unknown> {
  const data = response.body['data'];
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new Error(`expected {data: {...}}, got ${response.status} ${JSON.stringify(response.body)}`);
  return data as Record<string, unknown>;
}
