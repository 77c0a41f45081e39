/**
 * Salesforce refresh-token rotation with the token stored, on both engine sets: a refresh
 * answers a new refresh token and retires the one sent (the fake revokes every live token when a
 * retired one comes back). The new one is stored encrypted, written only if the stored one is
 * still the one that was sent, and read by every process before it refreshes, so a second
 * process holding the connection as read before the rotation still sends the newest token.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { CrmConnectionRepository } from '@leadstream/dal';
import {
  parseCrmConnectionInput,
  type CrmConnectionRecord,
  type SalesforceCredentials,
  type TenantContext,
} from '@leadstream/domain';
import {
  CredentialsCipher,
  crmCredentialsContext,
  CrmClient,
  openCrmConnection,
  StoredRefreshTokens,
} from '@leadstream/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enginePairs, type EnginePair } from '../test-support/engine-pairs';
import { FAKE_SALESFORCE, startFakeCrm, type FakeCrm } from './crm-fakes.test-support';

const tenant: TenantContext = { organizationId: 'org_rotation', environment: 'live' };
const cipher = new CredentialsCipher(randomBytes(32));
const target = { owner: null, queue: null };

describe.each(enginePairs('crm_rotation'))('Salesforce refresh-token rotation stored on the %s', (_name, open) => {
  let pair: EnginePair;
  let fake: FakeCrm;
  let clock = Date.parse('2026-03-01T10:00:00.000Z');

  beforeAll(async () => {
    pair = await open();
    fake = await startFakeCrm();
    fake.salesforce.rotateRefreshTokens = true;
  });
  afterAll(async () => {
    await fake?.close();
    await pair?.close();
  });

  async function storedConnection(repository: CrmConnectionRepository): Promise<CrmConnectionRecord> {
    const parsed = parseCrmConnectionInput({
      name: 'Campus Salesforce',
      type: 'salesforce',
      settings: { instance_url: fake.url, grant_type: 'refresh_token' },
      credentials: {
        client_id: FAKE_SALESFORCE.clientId,
        client_secret: FAKE_SALESFORCE.clientSecret,
        refresh_token: FAKE_SALESFORCE.refreshToken,
      },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.details));
    const id = `crm_${randomUUID().replace(/-/g, '')}`;
    const record: CrmConnectionRecord = {
      _id: id,
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      name: parsed.input.name,
      type: parsed.input.type,
      enabled: true,
      settings_json: JSON.stringify(parsed.input.settings),
      credentials_encrypted: cipher.encryptJson(
        parsed.input.credentials,
        crmCredentialsContext(tenant.organizationId, id),
      ),
      credential_fields: ['client_id', 'client_secret', 'refresh_token'],
      created_at: '2026-03-01T00:00:00.000Z',
      updated_at: '2026-03-01T00:00:00.000Z',
    };
    await repository.insert(record);
    return record;
  }

  const storedRefreshToken = async (
    repository: CrmConnectionRepository,
    id: string,
  ): Promise<{ token: string | undefined; record: CrmConnectionRecord }> => {
    const record = (await repository.findById(tenant, id))!;
    return {
      token: cipher.decryptJson<SalesforceCredentials>(
        record.credentials_encrypted,
        crmCredentialsContext(tenant.organizationId, id),
      ).refresh_token,
      record,
    };
  };

  it('stores each rotated refresh token encrypted and conditionally, and another process refreshes with the stored one', async () => {
    const repository = new CrmConnectionRepository(pair.store);
    const original = await storedConnection(repository);
    // Two processes (an api and a crm-sync worker, or two workers), each with the connection as read now.
    const process = () =>
      new CrmClient({
        timeoutMs: 2_000,
        allowInsecureTargets: true,
        now: () => clock,
        refreshTokens: new StoredRefreshTokens(repository, cipher),
      });
    const [first, second] = [process(), process()];
    const [readByFirst, readBySecond] = [openCrmConnection(original, cipher), openCrmConnection(original, cipher)];

    expect(
      (await first.sync(readByFirst, { _id: 'lead_rot1', email: 'one@example.edu', last_name: 'One' }, target, null))
        .outcome,
    ).toMatchObject({ kind: 'synced' });
    const afterFirst = await storedRefreshToken(repository, original._id);
    expect(afterFirst.token).toBe('sf-refresh-1');
    expect(afterFirst.record.credentials_encrypted).not.toContain('sf-refresh');
    // Only the credentials change: the connection's updated_at (its version for PATCH and the token cache) stays.
    expect(afterFirst.record).toMatchObject({
      updated_at: original.updated_at,
      name: original.name,
      settings_json: original.settings_json,
    });

    // The second process still holds the token it read before the rotation; it refreshes with the stored one.
    expect(
      (await second.sync(readBySecond, { _id: 'lead_rot2', email: 'two@example.edu', last_name: 'Two' }, target, null))
        .outcome,
    ).toMatchObject({ kind: 'synced' });
    expect(fake.salesforce.refreshTokensSent).toEqual([FAKE_SALESFORCE.refreshToken, 'sf-refresh-1']);
    expect((await storedRefreshToken(repository, original._id)).token).toBe('sf-refresh-2');
    // Later refreshes of both go on with the newest token.
    clock += 16 * 60_000;
    expect(
      (
        await first.sync(
          readByFirst,
          { _id: 'lead_rot3', email: 'three@example.edu', last_name: 'Three' },
          target,
          null,
        )
      ).outcome,
    ).toMatchObject({ kind: 'synced' });
    expect(fake.salesforce.refreshTokensSent).toEqual([FAKE_SALESFORCE.refreshToken, 'sf-refresh-1', 'sf-refresh-2']);

    // A rotation from a stale read never replaces a newer token.
    const store = new StoredRefreshTokens(repository, cipher);
    expect(await store.rotate({ tenant, id: original._id }, 'sf-refresh-1', 'sf-refresh-stale')).toBe(false);
    expect(await repository.replaceCredentials(tenant, original._id, original.credentials_encrypted, 'v1:stale')).toBe(
      false,
    );
    expect((await storedRefreshToken(repository, original._id)).token).toBe('sf-refresh-3');
    // Another organization's connection is not reached.
    expect(
      await store.current({ tenant: { organizationId: 'org_other', environment: 'live' }, id: original._id }),
    ).toBeNull();
  });
});
