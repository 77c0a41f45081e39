/**
 * The accounts layer on a MongoDB-protocol server (FerretDB in our infra): the unique email index,
 * revoked sessions, single-use reset tokens and the TTL sweep of revocations behave as on the
 * embedded store. Skips with a printed reason when no server is configured (README.md "Tests").
 */
import { randomBytes } from 'node:crypto';
import { REVOKED_SESSIONS_COLLECTION } from '@leadstream/dal';
import { openMongoStore } from '@leadstream/engine-mongo';
import type { DocumentStore } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenRequest } from '../oauth/oauth.test-support';
import {
  CapturingMailer,
  dataOf,
  startAccountsServer,
  UserApi,
  type AccountsTestServer,
} from './accounts.test-support';

const infra = lookupInfra('MONGODB_URI');
const dbName = `leadstream_accounts_${randomBytes(4).toString('hex')}`;

describe.skipIf(!infra.value)('accounts on a MongoDB-protocol server', () => {
  let store: DocumentStore;
  let server: AccountsTestServer;
  const mailer = new CapturingMailer();

  beforeAll(async () => {
    store = await openMongoStore({ uri: infra.value!, dbName });
    server = await startAccountsServer({ store, mailer });
  });

  afterAll(async () => {
    await server?.close();
    await store?.close();
    const client = new MongoClient(infra.value!);
    try {
      await client.connect();
      await client.db(dbName).dropDatabase();
    } finally {
      await client.close();
    }
  });

  it('registers once per email, logs in and out, and sweeps revocations after the token expiry', async () => {
    const api = new UserApi(server.url);
    const { token } = await api.register('fer@college.edu', 'Ferret College');
    const duplicate = await api.call('POST', '/api/auth/register', {
      email: 'FER@college.edu',
      password: 'Passw0rd!',
      first_name: 'Fe',
      last_name: 'Rr',
      organization_name: 'Again',
    });
    expect(duplicate).toMatchObject({ status: 409, body: { error: { code: 'EMAIL_ALREADY_REGISTERED' } } });
    expect((await api.call('POST', '/api/auth/logout', undefined, token)).status).toBe(204);
    expect((await api.call('GET', '/api/organization', undefined, token)).body).toMatchObject({
      error: { code: 'TOKEN_INVALID' },
    });

    const revocations = store.collection(REVOKED_SESSIONS_COLLECTION);
    expect(await revocations.countDocuments({})).toBe(1);
    await revocations.updateMany({}, { $set: { expires_at: new Date(Date.now() - 1_000) } });
    await store.sweepExpired();
    expect(await revocations.countDocuments({})).toBe(0);
  });

  it('uses a reset token once', async () => {
    const api = new UserApi(server.url);
    await api.register('reset.fer@college.edu', 'Reset Ferret');
    const sent = mailer.sent.length;
    await api.call('POST', '/api/auth/forgot-password', { email: 'reset.fer@college.edu' });
    const token = await mailer.tokenFor('reset.fer@college.edu', 'reset-password', sent);
    expect((await api.call('POST', '/api/auth/reset-password', { token, new_password: 'N3wPassword' })).status).toBe(
      200,
    );
    expect(
      (await api.call('POST', '/api/auth/reset-password', { token, new_password: 'N3wPassword' })).body,
    ).toMatchObject({ error: { code: 'INVALID_RESET_TOKEN' } });
    expect(
      (await api.call('POST', '/api/auth/login', { email: 'reset.fer@college.edu', password: 'N3wPassword' })).status,
    ).toBe(200);
  });

  // Found by Schemathesis: FerretDB cannot store or query text with U+0000, and the token endpoint
  // looked such a client_id, code or refresh token up (a 500). None can match what we issued.
  it('answers a token request carrying U+0000 with the OAuth error, not a 500', async () => {
    const owner = await UserApi.owner(server.url, 'oauth.fer@college.edu', 'OAuth Ferret');
    const created = await owner.call('POST', '/api/oauth/clients', {
      name: 'Ferret CRM',
      redirect_uris: ['https://crm.example.com/cb'],
    });
    const client = { id: String(dataOf(created)['id']), secret: String(dataOf(created)['client_secret']) };
    const nul = 'abc\u0000def';
    for (const path of ['/api/oauth/token', '/oauth/token']) {
      expect(
        await tokenRequest(
          server.url,
          { grant_type: 'refresh_token', refresh_token: 'x', client_id: nul },
          undefined,
          path,
        ),
      ).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
      expect(
        await tokenRequest(
          server.url,
          { grant_type: 'refresh_token', refresh_token: 'x' },
          { id: nul, secret: client.secret },
          path,
        ),
      ).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
      expect(
        await tokenRequest(server.url, { grant_type: 'refresh_token', refresh_token: nul }, client, path),
      ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect(
        await tokenRequest(
          server.url,
          { grant_type: 'refresh_token', refresh_token: nul, scope: 'leads:read' },
          client,
          path,
        ),
      ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect(
        await tokenRequest(
          server.url,
          { grant_type: 'authorization_code', code: nul, redirect_uri: 'https://crm.example.com/cb' },
          client,
          path,
        ),
      ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }
  });
});
