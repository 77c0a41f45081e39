import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CapturingMailer,
  dataOf,
  startAccountsServer,
  UserApi,
  type AccountsTestServer,
} from './accounts.test-support';

let server: AccountsTestServer;
let mailer: CapturingMailer;
let owner: UserApi & { userId: string; organizationId: string };

beforeAll(async () => {
  mailer = new CapturingMailer();
  server = await startAccountsServer({ mailer });
  owner = await UserApi.owner(server.url, 'owner@users.edu', 'Users College');
});

afterAll(async () => {
  await server?.close();
});

const code = (response: { body: Record<string, unknown> }): string | undefined =>
  (response.body['error'] as { code?: string } | undefined)?.code;

describe('users CRUD', () => {
  it('creates, lists, reads, changes and deletes users', async () => {
    const created = await owner.call('POST', '/api/users', {
      email: 'Mia@users.edu',
      password: 'Passw0rd!',
      first_name: 'Mia',
      last_name: 'Stone',
      role: 'manager',
    });
    expect(created.status).toBe(201);
    expect(created.body['data']).toMatchObject({
      email: 'Mia@users.edu',
      role: 'manager',
      status: 'active',
      organization_id: owner.organizationId,
    });
    expect(created.body['data']).not.toHaveProperty('password_hash');
    const id = String(dataOf(created)['id']);

    const list = await owner.call('GET', '/api/users');
    expect((list.body['data'] as Array<{ email: string }>).map((user) => user.email)).toEqual([
      'owner@users.edu',
      'Mia@users.edu',
    ]);
    expect(JSON.stringify(list.body)).not.toContain('scrypt');
    expect((await owner.call('GET', `/api/users/${id}`)).body['data']).toMatchObject({ id, first_name: 'Mia' });

    const patched = await owner.call('PATCH', `/api/users/${id}`, { last_name: 'Rivers', role: 'viewer' });
    expect(patched).toMatchObject({ status: 200, body: { data: { last_name: 'Rivers', role: 'viewer' } } });
    expect(code(await owner.call('PATCH', `/api/users/${id}`, { role: 'emperor' }))).toBe('VALIDATION_ERROR');

    expect((await owner.call('DELETE', `/api/users/${id}`)).status).toBe(204);
    expect((await owner.call('GET', `/api/users/${id}`)).status).toBe(404);
    expect(
      (await owner.call('POST', '/api/auth/login', { email: 'mia@users.edu', password: 'Passw0rd!' }, undefined))
        .status,
    ).toBe(401);
  });

  it('refuses an email that has an account anywhere with 409 and a weak password with 400 WEAK_PASSWORD', async () => {
    expect(
      code(
        await owner.call('POST', '/api/users', {
          email: 'OWNER@users.edu',
          password: 'Passw0rd!',
          first_name: 'Al',
          last_name: 'Bo',
          role: 'viewer',
        }),
      ),
    ).toBe('EMAIL_ALREADY_REGISTERED');
    expect(
      code(
        await owner.call('POST', '/api/users', {
          email: 'new@users.edu',
          password: 'password',
          first_name: 'Al',
          last_name: 'Bo',
          role: 'viewer',
        }),
      ),
    ).toBe('WEAK_PASSWORD');
  });
});

describe('role rules', () => {
  let admin: UserApi & { userId: string };
  let secondOwner: UserApi & { userId: string };

  beforeAll(async () => {
    admin = await owner.member('admin@users.edu', 'admin');
    secondOwner = await owner.member('owner2@users.edu', 'owner');
  });

  it('an admin cannot create, promote to, demote or delete an owner', async () => {
    expect(
      code(
        await admin.call('POST', '/api/users', {
          email: 'o3@users.edu',
          password: 'Passw0rd!',
          first_name: 'Oh',
          last_name: 'No',
          role: 'owner',
        }),
      ),
    ).toBe('INSUFFICIENT_PERMISSIONS');
    expect(code(await admin.call('PATCH', `/api/users/${secondOwner.userId}`, { role: 'viewer' }))).toBe(
      'INSUFFICIENT_PERMISSIONS',
    );
    expect(code(await admin.call('DELETE', `/api/users/${secondOwner.userId}`))).toBe('INSUFFICIENT_PERMISSIONS');
    const viewer = await admin.member('v@users.edu', 'viewer');
    expect(code(await admin.call('PATCH', `/api/users/${viewer.userId}`, { role: 'owner' }))).toBe(
      'INSUFFICIENT_PERMISSIONS',
    );
    expect((await admin.call('PATCH', `/api/users/${viewer.userId}`, { role: 'admin' })).status).toBe(200);
  });

  it('nobody changes their own role or deletes themselves; an owner may demote another owner', async () => {
    expect(code(await admin.call('PATCH', `/api/users/${admin.userId}`, { role: 'owner' }))).toBe(
      'INSUFFICIENT_PERMISSIONS',
    );
    expect(code(await owner.call('PATCH', `/api/users/${owner.userId}`, { role: 'admin' }))).toBe(
      'INSUFFICIENT_PERMISSIONS',
    );
    expect(code(await owner.call('DELETE', `/api/users/${owner.userId}`))).toBe('INSUFFICIENT_PERMISSIONS');
    expect(
      (await owner.call('PATCH', `/api/users/${owner.userId}`, { first_name: 'Olga' })).body['data'],
    ).toMatchObject({ first_name: 'Olga', role: 'owner' });
    expect(
      (await owner.call('PATCH', `/api/users/${secondOwner.userId}`, { role: 'admin' })).body['data'],
    ).toMatchObject({ role: 'admin' });
  });
});

describe('invitations', () => {
  it('invites by mail; the link sets the password once and signs the user in', async () => {
    const sent = mailer.sent.length;
    const invited = await owner.call('POST', '/api/users/invite', {
      email: 'new.hire@users.edu',
      role: 'manager',
      first_name: 'Nia',
    });
    expect(invited.status).toBe(201);
    expect(invited.body['data']).toMatchObject({
      email: 'new.hire@users.edu',
      role: 'manager',
      status: 'invited',
      invitation_expires_at: expect.any(String),
    });
    const token = await mailer.tokenFor('new.hire@users.edu', 'accept-invite', sent);
    expect(mailer.sent.at(-1)?.text).toContain('https://app.test/accept-invite?token=');

    // Invited users cannot log in before accepting.
    expect(
      (await owner.call('POST', '/api/auth/login', { email: 'new.hire@users.edu', password: 'Passw0rd!' }, undefined))
        .status,
    ).toBe(401);
    expect(code(await owner.call('POST', '/api/auth/accept-invite', { token, password: 'Passw0rd!' }, undefined))).toBe(
      'VALIDATION_ERROR',
    ); // last_name missing
    const accepted = await owner.call(
      'POST',
      '/api/auth/accept-invite',
      { token, password: 'Passw0rd!', last_name: 'Park' },
      undefined,
    );
    expect(accepted.status).toBe(200);
    expect(Object.keys(accepted.body).sort()).toEqual(['expires_at', 'token', 'user']);
    expect(accepted.body['user']).toMatchObject({
      email: 'new.hire@users.edu',
      first_name: 'Nia',
      last_name: 'Park',
      role: 'manager',
      organization_id: owner.organizationId,
    });
    expect((await owner.call('GET', '/api/vendors', undefined, String(accepted.body['token']))).status).toBe(200);
    expect(code(await owner.call('POST', '/api/auth/accept-invite', { token, password: 'Passw0rd!' }, undefined))).toBe(
      'INVALID_RESET_TOKEN',
    );
    expect(
      (await owner.call('POST', '/api/auth/login', { email: 'new.hire@users.edu', password: 'Passw0rd!' }, undefined))
        .status,
    ).toBe(200);
  });

  it('undoes the invitation when the mail cannot be sent', async () => {
    mailer.failNext = true;
    const failed = await owner.call('POST', '/api/users/invite', { email: 'late@users.edu', role: 'viewer' });
    expect(failed.status).toBe(503);
    expect((await owner.call('POST', '/api/users/invite', { email: 'late@users.edu', role: 'viewer' })).status).toBe(
      201,
    );
  });
});
