/** POST /api/webhooks/:id/test: one signed test event sent now, outside the delivery log. */
import type { WebhookRepository } from '@leadstream/dal';
import {
  SIGNATURE_HEADER,
  signatureHeader,
  WEBHOOK_TEST_EVENT,
  webhookBody,
  type TenantContext,
} from '@leadstream/domain';
import { sendOutbound, type CredentialsCipher } from '@leadstream/runtime';
import { findWebhook, newId, readableSecret, type WebhookTargetOptions } from './webhook-access';

export interface TestWebhookDeps {
  webhooks: Pick<WebhookRepository, 'find'>;
  cipher: CredentialsCipher;
  outbound: WebhookTargetOptions;
  /** The test's time limit (30 s, like a delivery attempt). */
  timeoutMs: number;
  clock: () => Date;
}

export interface TestWebhookInput {
  tenant: TenantContext;
  webhookId: string;
}

export type TestWebhookResult =
  | { delivered: true; responseStatus: number; responseTimeMs: number; testEventId: string }
  | { delivered: false; error: string; responseTimeMs: number };

export const UNREADABLE_SECRET =
  "the webhook's signing secret does not decrypt with the configured key (CRM_CREDENTIALS_KEY changed?)";

export async function testWebhook(deps: TestWebhookDeps, input: TestWebhookInput): Promise<TestWebhookResult> {
  const webhook = await findWebhook(deps, input.tenant, input.webhookId);
  const secret = readableSecret(deps.cipher, webhook);
  if (secret === null) return { delivered: false, error: UNREADABLE_SECRET, responseTimeMs: 0 };
  const now = deps.clock();
  const testEventId = newId('evt_test');
  const body = webhookBody({
    id: testEventId,
    event: WEBHOOK_TEST_EVENT,
    timestamp: now.toISOString(),
    organization_id: webhook.organization_id,
    data: {
      webhook_id: webhook.id,
      message: 'A test event from leadstream: answer 2xx to confirm the endpoint works.',
    },
  });
  const result = await sendOutbound(
    {
      url: webhook.url,
      method: 'POST',
      rawBody: body,
      headers: {
        [SIGNATURE_HEADER]: signatureHeader(secret, Math.floor(now.getTime() / 1000), body),
        'X-Service-Event': WEBHOOK_TEST_EVENT,
        'X-Service-Delivery': testEventId,
      },
    },
    { timeoutMs: deps.timeoutMs, ...deps.outbound },
  );
  return result.ok
    ? { delivered: true, responseStatus: result.status, responseTimeMs: result.timeMs, testEventId }
    : {
        delivered: false,
        error: result.code === 'HTTP_ERROR' ? `The endpoint answered HTTP ${result.status}` : result.error,
        responseTimeMs: result.timeMs,
      };
}
