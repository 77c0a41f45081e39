/**
 * The organization a run loads, made through the public API only, as a school would: register an
 * owner, add a CRM connection to the loopback CRM (and test it), a routing rule that sends every
 * lead to it, a vendor with a live API key, and a webhook subscribed to every event, pointing at
 * the loopback receiver.
 */
import { SPEC_EVENTS } from '../../apps/leadstream/src/test-support/webhook-receiver';
import type { CrmProcess, WebhookReceiverProcess } from './receivers';

export interface Tenant {
  organizationId: string;
  token: string;
  vendorId: string;
  key: string;
  connectionId: string;
  webhookId: string;
  routingRuleId: string;
}

export const WEBHOOK_PATH = '/hooks/chaos';
export const WEBHOOK_EVENTS: readonly string[] = SPEC_EVENTS;

async function call(
  base: string,
  method: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function expectStatus(
  what: string,
  status: number,
  answer: Promise<{ status: number; body: Record<string, unknown> }>,
): Promise<Record<string, unknown>> {
  const { status: got, body } = await answer;
  if (got !== status) throw new Error(`${what}: expected ${status}, got ${got} ${JSON.stringify(body)}`);
  return body;
}

const dataOf = (body: Record<string, unknown>): Record<string, unknown> => body['data'] as Record<string, unknown>;

export async function setUpTenant(
  base: string,
  run: string,
  crm: CrmProcess,
  crmAuth: string,
  receiver: WebhookReceiverProcess,
): Promise<Tenant> {
  const registered = await expectStatus(
    'register',
    201,
    call(base, 'POST', '/api/auth/register', {
      email: `owner.${run}@chaos.example.edu`,
      password: 'Chaos-Passw0rd!',
      first_name: 'Chaos',
      last_name: 'Owner',
      organization_name: `Chaos College ${run}`,
    }),
  );
  const token = String(registered['token']);
  const organizationId = String((registered['user'] as Record<string, unknown>)['organization_id']);
  const connection = dataOf(
    await expectStatus(
      'CRM connection',
      201,
      call(
        base,
        'POST',
        '/api/crm/connections',
        {
          name: 'Loopback CRM',
          type: 'webhook_json',
          settings: { url: crm.url },
          credentials: { auth_value: crmAuth },
        },
        token,
      ),
    ),
  );
  const connectionId = String(connection['id']);
  const tested = await expectStatus(
    'CRM connection test',
    200,
    call(base, 'POST', `/api/crm/connections/${connectionId}/test`, undefined, token),
  );
  if (tested['success'] !== true) throw new Error(`the CRM connection test failed: ${JSON.stringify(tested)}`);
  const rule = dataOf(
    await expectStatus(
      'routing rule',
      201,
      call(
        base,
        'POST',
        '/api/routing/rules',
        {
          name: 'Every lead to the loopback CRM',
          priority: 10,
          targets: [{ connection_id: connectionId, queue: 'chaos' }],
        },
        token,
      ),
    ),
  );
  const vendorId = String(
    dataOf(
      await expectStatus(
        'vendor',
        201,
        call(base, 'POST', '/api/vendors', { name: 'Chaos Leads', type: 'inquiry' }, token),
      ),
    )['id'],
  );
  const key = String(
    dataOf(
      await expectStatus(
        'API key',
        201,
        call(base, 'POST', '/api/api-keys', { name: 'chaos load', vendor_id: vendorId }, token),
      ),
    )['key'],
  );
  const webhook = dataOf(
    await expectStatus(
      'webhook',
      201,
      call(
        base,
        'POST',
        '/api/webhooks',
        { url: `${receiver.url}${WEBHOOK_PATH}`, events: WEBHOOK_EVENTS, description: 'chaos receiver' },
        token,
      ),
    ),
  );
  await receiver.setSecret(WEBHOOK_PATH, String(webhook['secret']));
  return {
    organizationId,
    token,
    vendorId,
    key,
    connectionId,
    webhookId: String(webhook['id']),
    routingRuleId: String(rule['id']),
  };
}
