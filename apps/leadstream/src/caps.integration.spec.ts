/**
 * Volume caps end to end on `leadstream start`, on each engine set (docs/caps.md). A vendor cap of
 * 50 a day in America/New_York and an organization cap of 1,000 made through the user API; then:
 * - 200 concurrent submissions: exactly 50 answered 201, 150 answered 422 with the cap's reason and
 *   id, stored rejected; the organization cap counted only the 50 accepted (a lead one cap refuses
 *   is uncounted from the caps before it); cap.reached reaches a webhook once;
 * - GET /api/caps/:id/usage and the vendor portal's GET /api/vendor-portal/caps say where the
 *   vendor stands (its own caps only);
 * - a restart keeps the count (the next lead is still refused);
 * - the local midnight of the cap's zone resets it: the service runs on the clock the caps take
 *   (CAPS_CLOCK_OFFSET_MS), 30 minutes before New York's next midnight, then 30 minutes after it;
 * - the organization cap is checked before the vendor cap: lowered below the vendor's, it refuses
 *   with its own id and reason while the vendor cap has room, and reaches once in its period.
 */
import { randomUUID } from 'node:crypto';
import { capPeriodAt } from '@leadstream/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient, type JsonResponse } from './test-support/json-client';
import { eventually, WebhookReceiver } from './test-support/webhook-receiver';

const setups = engineSetups('caps');
const ZONE = 'America/New_York';
const MINUTE = 60_000;

describe.each(setups)('volume caps on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  const receiver = new WebhookReceiver();
  let server: CliProcess | undefined;
  let base = '';
  const call = jsonClient(() => base);
  // The caps' clock: 30 minutes before the next local midnight in New York, then 30 minutes after it.
  const midnight = Date.parse(capPeriodAt(new Date(), 1, 'day', ZONE).end);
  const beforeMidnight = midnight - 30 * MINUTE - Date.now();
  const afterMidnight = midnight + 30 * MINUTE - Date.now();

  const start = async (offsetMs: number): Promise<void> => {
    ({ server, url: base } = await CliProcess.startService(
      serviceEnv({
        TOPIC_PARTITIONS: '3',
        DECISION_TIMEOUT_MS: '60000',
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        CAPS_CLOCK_OFFSET_MS: String(offsetMs),
        ...setup.env,
      }),
    ));
  };
  const stop = async (): Promise<void> => {
    server?.kill('SIGTERM');
    await server?.exited;
    server = undefined;
  };

  beforeAll(async () => {
    await receiver.start();
    await start(beforeMidnight);
  }, 180_000);

  afterAll(async () => {
    await stop();
    await receiver.stop();
    await setup.cleanup();
  });

  it('caps exactly under concurrency, keeps the count over a restart, resets at local midnight, org cap first', async () => {
    const token = String(
      (
        await call('POST', '/api/auth/register', {
          email: 'caps@example.edu',
          password: 'Caps-Passw0rd-1',
          first_name: 'Ca',
          last_name: 'Ps',
          organization_name: 'Capped College',
        })
      ).body['token'],
    );
    const user = async (method: string, path: string, body?: unknown, expected = 200): Promise<JsonResponse> => {
      const response = await call(method, path, body, token);
      expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(expected);
      return response;
    };
    const data = (response: JsonResponse) => response.body['data'] as Record<string, unknown>;
    const vendorId = String(
      data(await user('POST', '/api/vendors', { name: 'Capped Leads', type: 'inquiry' }, 201))['id'],
    );
    const otherVendorId = String(
      data(await user('POST', '/api/vendors', { name: 'Other Leads', type: 'inquiry' }, 201))['id'],
    );
    const key = String(
      data(
        await user(
          'POST',
          '/api/api-keys',
          { name: 'k', vendor_id: vendorId, permissions: ['read', 'write'], rate_limit: 100_000 },
          201,
        ),
      )['key'],
    );
    const path = '/hooks/caps';
    const webhook = data(
      await user(
        'POST',
        '/api/webhooks',
        { url: `${receiver.url}${path}`, events: ['cap.reached', 'lead.rejected'] },
        201,
      ),
    );
    receiver.secrets.set(path, String(webhook['secret']));

    const orgCap = data(await user('POST', '/api/caps', { name: 'School total', maximum: 1000, time_zone: ZONE }, 201));
    const vendorCap = data(
      await user(
        'POST',
        '/api/caps',
        {
          name: 'Capped Leads daily',
          scope: 'vendor',
          vendor_id: vendorId,
          maximum: 50,
          duration: 1,
          duration_units: 'day',
          time_zone: ZONE,
          reason: 'vendor_cap_reached',
        },
        201,
      ),
    );
    expect(vendorCap).toMatchObject({
      id: expect.stringMatching(/^cap_/),
      scope: 'vendor',
      vendor_id: vendorId,
      maximum: 50,
      conditions: null,
      enabled: true,
    });
    expect(orgCap).toMatchObject({
      scope: 'organization',
      vendor_id: null,
      reason: 'cap_reached',
      duration_units: 'day',
    });
    // Another vendor's cap, which the vendor portal must not show this vendor.
    await user('POST', '/api/caps', { name: 'Other', scope: 'vendor', vendor_id: otherVendorId, maximum: 5 }, 201);

    const run = randomUUID().slice(0, 8);
    const submit = (index: number) =>
      call(
        'POST',
        '/api/v1/leads/ingest',
        {
          email: `cap.${run}.${index}@example.edu`,
          first_name: 'Ada',
          last_name: `Capped${index}x${run}`,
          form_started_at: new Date(Date.now() - 30_000).toISOString(),
        },
        key,
      );

    // 200 at once against a cap of 50.
    const answers = await Promise.all(Array.from({ length: 200 }, (_, index) => submit(index)));
    const accepted = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 422);
    expect(accepted.length + refused.length, JSON.stringify(answers.find((a) => ![201, 422].includes(a.status)))).toBe(
      200,
    );
    expect(accepted).toHaveLength(50);
    for (const answer of refused)
      expect(answer.body).toMatchObject({
        success: false,
        error: 'Lead rejected',
        reason: 'vendor_cap_reached',
        rule_id: vendorCap['id'],
      });

    // Stored rejected with the cap's reason and id; the organization cap counted only the accepted ones.
    const rejectedLeads = await user('GET', '/api/leads?status=rejected&limit=100');
    expect((rejectedLeads.body['meta'] as Record<string, unknown>)['total']).toBe(150);
    // Each is stored rejected and its lead.rejected (its activity) names the cap and its reason.
    for (const lead of (rejectedLeads.body['data'] as Array<Record<string, unknown>>).slice(0, 5)) {
      expect(data(await user('GET', `/api/leads/${String(lead['id'])}`))['status']).toBe('rejected');
      const activity = await eventually(`the activity of ${String(lead['id'])}`, async () => {
        const entries = (await user('GET', `/api/leads/${String(lead['id'])}/activity`)).body['data'] as Array<
          Record<string, unknown>
        >;
        return entries.find((entry) => entry['event'] === 'lead.rejected');
      });
      expect(activity['metadata']).toEqual({ rule_id: vendorCap['id'], rejection_reason: 'vendor_cap_reached' });
    }
    const period = capPeriodAt(new Date(Date.now() + beforeMidnight), 1, 'day', ZONE);
    expect(data(await user('GET', `/api/caps/${String(vendorCap['id'])}/usage`))).toEqual({
      cap_id: vendorCap['id'],
      period_start: period.start,
      period_end: period.end,
      count: 50,
      maximum: 50,
      remaining: 0,
    });
    expect(data(await user('GET', `/api/caps/${String(orgCap['id'])}/usage`))).toMatchObject({
      count: 50,
      remaining: 950,
    });

    // The vendor sees its own cap and that nothing is left.
    const portal = await call('GET', '/api/vendor-portal/caps', undefined, key);
    expect(portal.status).toBe(200);
    expect(portal.body['data']).toEqual([
      {
        id: vendorCap['id'],
        name: 'Capped Leads daily',
        enabled: true,
        maximum: 50,
        duration: 1,
        duration_units: 'day',
        time_zone: ZONE,
        reason: 'vendor_cap_reached',
        period_start: period.start,
        period_end: period.end,
        count: 50,
        remaining: 0,
      },
    ]);

    // cap.reached once: every lead.rejected of the refused leads has arrived, and one cap.reached with them.
    await eventually('150 lead.rejected deliveries', () =>
      receiver.at(path).filter((event) => event.event === 'lead.rejected').length >= 150 ? true : undefined,
    );
    const reached = () => receiver.at(path).filter((event) => event.event === 'cap.reached');
    await eventually('cap.reached', () => (reached().length > 0 ? true : undefined));
    expect(reached().map((event) => event.data)).toEqual([
      expect.objectContaining({
        cap_id: vendorCap['id'],
        scope: 'vendor',
        vendor_id: vendorId,
        maximum: 50,
        count: 50,
        period_start: period.start,
        period_end: period.end,
        reason: 'vendor_cap_reached',
      }),
    ]);
    expect(receiver.at(path).flatMap((event) => event.problems)).toEqual([]);

    // A restart in the same period keeps the count.
    await stop();
    await start(beforeMidnight);
    expect(data(await user('GET', `/api/caps/${String(vendorCap['id'])}/usage`))).toMatchObject({
      period_start: period.start,
      count: 50,
      remaining: 0,
    });
    expect((await submit(1000)).body).toMatchObject({ reason: 'vendor_cap_reached', rule_id: vendorCap['id'] });

    // Past New York's midnight: a new period, nothing counted yet.
    await stop();
    await start(afterMidnight);
    const next = capPeriodAt(new Date(Date.now() + afterMidnight), 1, 'day', ZONE);
    expect(next.start).toBe(period.end);
    expect(data(await user('GET', `/api/caps/${String(vendorCap['id'])}/usage`))).toEqual({
      cap_id: vendorCap['id'],
      period_start: next.start,
      period_end: next.end,
      count: 0,
      maximum: 50,
      remaining: 50,
    });
    for (const index of [2000, 2001, 2002]) expect((await submit(index)).status).toBe(201);

    // The organization cap, now below the vendor's, is checked first and refuses in its own name.
    await user('PATCH', `/api/caps/${String(orgCap['id'])}`, { maximum: 4 });
    expect((await submit(2003)).status).toBe(201);
    const overOrg = await submit(2004);
    expect(overOrg.status).toBe(422);
    expect(overOrg.body).toMatchObject({ reason: 'cap_reached', rule_id: orgCap['id'] });
    expect(data(await user('GET', `/api/caps/${String(vendorCap['id'])}/usage`))).toMatchObject({
      count: 4,
      remaining: 46,
    });
    expect(data(await user('GET', `/api/caps/${String(orgCap['id'])}/usage`))).toMatchObject({
      period_start: next.start,
      count: 4,
      remaining: 0,
    });
    await eventually('cap.reached of the organization cap', () =>
      reached().some((event) => event.data['cap_id'] === orgCap['id']) ? true : undefined,
    );
    expect(reached().map((event) => [event.data['cap_id'], event.data['period_start']])).toEqual([
      [vendorCap['id'], period.start],
      [orgCap['id'], next.start],
    ]);
  }, 600_000);
});
