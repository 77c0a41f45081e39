/**
 * Routing end to end on `leadstream start`, on each engine set (docs/routing.md): CRM connections
 * and routing rules made through the user API, leads ingested by a vendor, and each lead's route
 * read back through the API (its lead.routed activity entry): the first matching rule by priority,
 * a round-robin rule taking its owners in turn, and every enabled connection for a lead no rule
 * takes. The CRM on loopback then receives each lead at the connections its route names, with the
 * owner and queue of its target, once.
 */
import { partitionForKey } from '@leadstream/ports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient } from './test-support/json-client';
import { LoopbackCrm } from './test-support/loopback-crm';
import { eventually } from './test-support/webhook-receiver';

const setups = engineSetups('routing');
const PARTITIONS = 3;

interface Target {
  connection_id: string;
  owner: string | null;
  queue: string | null;
}

describe.each(setups)('routing on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  const crm = new LoopbackCrm();
  let server: CliProcess;
  let base = '';
  const call = jsonClient(() => base);

  beforeAll(async () => {
    await crm.start();
    ({ server, url: base } = await CliProcess.startService(
      serviceEnv({
        TOPIC_PARTITIONS: String(PARTITIONS),
        DECISION_TIMEOUT_MS: '10000',
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        ...setup.env,
      }),
    ));
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await crm.stop();
    await setup.cleanup();
  });

  it('routes each lead by the rules made through the API, shows the route in its activity, and the CRM gets it once per target', async () => {
    const token = String(
      (
        await call('POST', '/api/auth/register', {
          email: 'routing@example.edu',
          password: 'Routing-Passw0rd',
          first_name: 'Ro',
          last_name: 'Uting',
          organization_name: 'Routing College',
        })
      ).body['token'],
    );
    const user = async (
      method: string,
      path: string,
      body?: unknown,
      expected = 200,
    ): Promise<Record<string, unknown>> => {
      const response = await call(method, path, body, token);
      expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(expected);
      return response.body;
    };
    const data = (body: Record<string, unknown>) => body['data'] as Record<string, unknown>;
    const vendor = String(data(await user('POST', '/api/vendors', { name: 'Fair Leads', type: 'inquiry' }, 201))['id']);
    const key = String(data(await user('POST', '/api/api-keys', { name: 'k', vendor_id: vendor }, 201))['key']);
    const connection = async (name: string, path: string) =>
      String(data(await user('POST', '/api/crm/connections', crm.connection(name, path), 201))['id']);
    const admissions = await connection('Admissions CRM', '/admissions');
    const nursingCrm = await connection('Nursing CRM', '/nursing');

    const nursing = String(
      data(
        await user(
          'POST',
          '/api/routing/rules',
          {
            name: 'Nursing',
            priority: 1,
            conditions: {
              operator: 'AND',
              rules: [{ field: 'program_interest', operator: 'contains', value: 'nursing' }],
            },
            targets: [{ connection_id: nursingCrm, queue: 'health' }],
          },
          201,
        ),
      )['id'],
    );
    const fair = String(
      data(
        await user(
          'POST',
          '/api/routing/rules',
          {
            name: 'College fair',
            priority: 2,
            conditions: { operator: 'AND', rules: [{ field: 'utm_source', operator: 'equals', value: 'fair' }] },
            targets: [
              { connection_id: admissions, owner: 'ana' },
              { connection_id: admissions, owner: 'ben' },
            ],
            distribution: 'round_robin',
          },
          201,
        ),
      )['id'],
    );
    // The test endpoint answers as the stage will decide, and stores nothing.
    expect(
      data(
        await user('POST', '/api/routing/test', {
          lead_data: { email: 'x@example.edu', program_interest: 'BSc Nursing', utm_source: 'fair' },
        }),
      ),
    ).toEqual({
      rule_id: nursing,
      rule_name: 'Nursing',
      reason: 'rule',
      targets: [{ connection_id: nursingCrm, owner: null, queue: 'health' }],
      enrichment_outcome: 'accepted',
    });

    const ingest = async (body: Record<string, unknown>): Promise<string> => {
      const response = await call(
        'POST',
        '/api/v1/leads/ingest',
        { first_name: 'Ada', last_name: 'Lovelace', ...body },
        key,
      );
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return String(response.body['lead_id']);
    };
    const nurse = await ingest({ email: 'nurse@example.edu', program_interest: 'BSc Nursing', utm_source: 'fair' });
    const fairOne = await ingest({ email: 'fair.one@example.edu', utm_source: 'fair' });
    const fairTwo = await ingest({ email: 'fair.two@example.edu', utm_source: 'fair' });
    const web = await ingest({ email: 'web@example.edu', utm_source: 'web' });

    const routeOf = (id: string) =>
      eventually(`the lead.routed activity of ${id}`, async () => {
        const entries = data(await user('GET', `/api/leads/${id}/activity`)) as unknown as Array<{
          event: string;
          description: string;
          metadata: Record<string, unknown>;
        }>;
        const routed = entries.filter((entry) => entry.event === 'lead.routed');
        if (routed.length === 0) return undefined;
        expect(routed).toHaveLength(1);
        expect(routed[0]!.description).toBe('Lead routed');
        return routed[0]!.metadata as {
          lead_id: string;
          rule_id: string | null;
          reason: string;
          targets: Target[];
          routed_at: string;
        };
      });

    const nurseRoute = await routeOf(nurse);
    expect(nurseRoute).toMatchObject({
      lead_id: nurse,
      rule_id: nursing,
      reason: 'rule',
      targets: [{ connection_id: nursingCrm, owner: null, queue: 'health' }],
    });
    // The lead itself shows the same route.
    expect(data(await user('GET', `/api/leads/${nurse}`))['routing']).toEqual({
      rule_id: nursing,
      reason: 'rule',
      targets: [{ connection_id: nursingCrm, owner: null, queue: 'health' }],
      routed_at: nurseRoute.routed_at,
    });
    const fairRoutes = [await routeOf(fairOne), await routeOf(fairTwo)];
    expect(fairRoutes.map((route) => route.rule_id)).toEqual([fair, fair]);
    expect(fairRoutes.map((route) => route.targets[0]!.owner).sort()).toEqual(['ana', 'ben']);
    expect(
      fairRoutes.every((route) => route.targets.length === 1 && route.targets[0]!.connection_id === admissions),
    ).toBe(true);
    const webRoute = await routeOf(web);
    expect(webRoute).toMatchObject({ rule_id: null, reason: 'all_connections' });
    expect(webRoute.targets.map((target) => target.connection_id).sort()).toEqual([admissions, nursingCrm].sort());

    // crm-sync takes leads.routed: each lead reaches the CRM at each connection of its route, once.
    const expected = [
      { lead: nurse, path: '/nursing', owner: null, queue: 'health' },
      { lead: fairOne, path: '/admissions', owner: fairRoutes[0]!.targets[0]!.owner, queue: null },
      { lead: fairTwo, path: '/admissions', owner: fairRoutes[1]!.targets[0]!.owner, queue: null },
      { lead: web, path: '/admissions', owner: null, queue: null },
      { lead: web, path: '/nursing', owner: null, queue: null },
    ];
    const key_ = (lead: unknown, path: string) => `${String(lead)} ${path}`;
    await eventually('the CRM to receive every routed lead', async () =>
      expected.every((want) =>
        crm.received.some((got) => key_(got.body['external_id'], got.path) === key_(want.lead, want.path)),
      )
        ? true
        : undefined,
    );
    // Anything sent twice would have been sent by now: crm-sync has committed past these leads on
    // every partition of leads.routed. The signal: on each partition, a marker lead submitted after
    // them is synced (its batch committed, so every send of that batch and of the batches before
    // it on that partition was answered).
    const markers = new Map<number, string>();
    for (let n = 0; markers.size < PARTITIONS; n++) {
      if (n >= 60) throw new Error(`60 marker leads did not cover the ${PARTITIONS} partitions`);
      const marker = await ingest({ email: `marker.${n}@example.edu`, utm_source: 'web' });
      if (!markers.has(partitionForKey(marker, PARTITIONS))) markers.set(partitionForKey(marker, PARTITIONS), marker);
    }
    for (const marker of markers.values()) {
      await eventually(`the marker lead ${marker} to be synced`, async () =>
        data(await user('GET', `/api/leads/${marker}`))['crm_sync_status'] === 'synced' ? true : undefined,
      );
    }
    const routedLeads = new Set(expected.map((want) => want.lead));
    const received = crm.received
      .filter((got) => routedLeads.has(String(got.body['external_id'])))
      .map((got) => ({
        lead: got.body['external_id'],
        path: got.path,
        owner: got.body['owner'] ?? null,
        queue: got.body['queue'] ?? null,
      }));
    expect(received.sort((a, b) => key_(a.lead, a.path).localeCompare(key_(b.lead, b.path)))).toEqual(
      [...expected].sort((a, b) => key_(a.lead, a.path).localeCompare(key_(b.lead, b.path))),
    );

    // The pipeline caches a tenant's enabled connections for the leads no rule takes; a change of
    // a connection reaches the next lead at once.
    await user('PATCH', `/api/crm/connections/${nursingCrm}`, { enabled: false });
    const afterDisable = await routeOf(await ingest({ email: 'web.two@example.edu', utm_source: 'web' }));
    expect(afterDisable).toMatchObject({ rule_id: null, reason: 'all_connections' });
    expect(afterDisable.targets.map((target) => target.connection_id)).toEqual([admissions]);
    await user('DELETE', `/api/crm/connections/${admissions}`, undefined, 204);
    const afterDelete = await routeOf(await ingest({ email: 'web.three@example.edu', utm_source: 'web' }));
    expect(afterDelete).toMatchObject({ rule_id: null, reason: 'none', targets: [] });
  });
});
