/**
 * The review queue end to end on `leadstream start` (docs/review-queue.md), on both engine sets.
 * Leads flagged as possible bots (their form was filled in 2 s) are answered 201, stored and held
 * by the route stage: a CRM receiver on loopback never gets them while they wait, and they are in
 * GET /api/review-queue with the flag in words. An approved lead is routed and synced through the
 * pipeline's own topics; a rejected one is rejected and never synced; both record lead.reviewed
 * with the reviewer. The review settings are organization settings (PATCH /api/organization), and
 * the scheduled automatic decision decides a waiting lead once, across restarts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient } from './test-support/json-client';

const setups = engineSetups('review-queue');
const AUTH = 'Bearer review-queue-secret';

interface Receiver {
  url: string;
  /** external_id of every sync call. */
  posts: string[];
  close(): Promise<void>;
}

/** A JSON CRM that records every lead it is sent. */
async function startReceiver(): Promise<Receiver> {
  const posts: string[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== AUTH) return answer(401, { error: { message: 'bad token' } });
      if (request.headers['x-leadstream-test'] === 'true') return answer(200, { ok: true });
      const body = JSON.parse(text) as { external_id: string };
      posts.push(body.external_id);
      return answer(201, { id: `rec_${posts.length}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/crm`,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

interface TimelineEntry {
  stage: string;
  outcome: string;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  detail: Record<string, unknown>;
}

interface ActivityEntry {
  event: string;
  metadata: Record<string, unknown>;
}

describe.each(setups)('the review queue on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  const env = serviceEnv({
    TOPIC_PARTITIONS: '2',
    DECISION_TIMEOUT_MS: '10000',
    WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
    REVIEW_AUTO_DECISION_INTERVAL_MS: '200',
    ...setup.env,
  });
  let server: CliProcess;
  let receiver: Receiver;
  let base = '';
  let token = '';
  let userId = '';
  let key = '';
  const call = jsonClient(() => base);
  const data = (body: Record<string, unknown>): Record<string, unknown> => body['data'] as Record<string, unknown>;
  const lead = async (id: string) => data((await call('GET', `/api/leads/${id}`, undefined, token)).body);
  const activity = async (id: string) =>
    ((await call('GET', `/api/leads/${id}/activity`, undefined, token)).body['data'] ?? []) as ActivityEntry[];
  const timeline = async (id: string) =>
    ((await call('GET', `/api/leads/${id}/timeline`, undefined, token)).body['data'] ?? []) as TimelineEntry[];
  const queue = async (query = '') => (await call('GET', `/api/review-queue${query}`, undefined, token)).body;
  const queuedIds = async (): Promise<string[]> =>
    (((await queue())['data'] ?? []) as Array<{ lead_id: string }>).map((item) => item.lead_id);

  /** A lead whose form was opened 2 s before it was sent: flagged as a possible bot (1-3 s). */
  async function ingestFlagged(name: string): Promise<string> {
    const ingested = await call(
      'POST',
      '/api/v1/leads/ingest',
      {
        email: `${name}@example.edu`,
        first_name: name,
        last_name: 'Quick',
        form_started_at: new Date(Date.now() - 2_000).toISOString(),
      },
      key,
    );
    expect(ingested.status, JSON.stringify(ingested.body)).toBe(201);
    expect(ingested.body['flags']).toEqual(expect.arrayContaining(['manual_review', 'possible_bot']));
    return String(ingested.body['lead_id']);
  }

  async function restart(): Promise<void> {
    server.kill('SIGTERM');
    await server.exited;
    ({ server, url: base } = await CliProcess.startService(env));
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    ({ server, url: base } = await CliProcess.startService(env));
    const registered = await call('POST', '/api/auth/register', {
      email: 'review.owner@example.edu',
      password: 'Review-Passw0rd',
      first_name: 'Re',
      last_name: 'Viewer',
      organization_name: 'Review College',
    });
    token = String(registered.body['token']);
    userId = String((registered.body['user'] as Record<string, unknown>)['id']);
    const connection = await call(
      'POST',
      '/api/crm/connections',
      { name: 'Campus CRM', type: 'webhook_json', settings: { url: receiver.url }, credentials: { auth_value: AUTH } },
      token,
    );
    expect(connection.status, JSON.stringify(connection.body)).toBe(201);
    const vendor = String(
      data((await call('POST', '/api/vendors', { name: 'Review Leads', type: 'inquiry' }, token)).body)['id'],
    );
    key = String(data((await call('POST', '/api/api-keys', { name: 'live', vendor_id: vendor }, token)).body)['key']);
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await receiver?.close();
    await setup.cleanup();
  });

  it('holds flagged leads out of the CRM until approved; an approved one is synced, a rejected one never', async () => {
    const plain = String(
      (await call('POST', '/api/v1/leads/ingest', { email: 'calm@example.edu', first_name: 'Calm' }, key)).body[
        'lead_id'
      ],
    );
    const approved = await ingestFlagged('approve.me');
    const rejected = await ingestFlagged('reject.me');

    // The unflagged lead goes straight through; the flagged ones wait in the queue.
    await until(
      () => lead(plain),
      (value) => value['crm_sync_status'] === 'synced',
      'the plain lead synced',
    );
    await until(queuedIds, (ids) => ids.includes(approved) && ids.includes(rejected), 'both flagged leads queued');
    const listed = await queue('?flag=possible_bot');
    const items = listed['data'] as Array<Record<string, unknown>>;
    expect(items.map((item) => item['lead_id'])).toEqual([approved, rejected]);
    expect(items[0]).toMatchObject({ flags: ['possible_bot'], overdue: false, email: 'approve.me@example.edu' });
    expect(String((items[0]!['reasons'] as Array<{ text: string }>)[0]!.text)).toMatch(
      /^submitted \d+\.\d s after the form opened$/,
    );
    expect(listed['meta']).toMatchObject({ total: 2, counts: { possible_bot: 2, email_typo: 0, rule: 0 } });
    expect((await queue('?flag=email_typo'))['meta']).toMatchObject({ total: 0 });
    expect(await lead(approved)).toMatchObject({ status: 'active', crm_sync_status: 'pending' });
    expect((await activity(approved)).map((entry) => entry.event)).not.toContain('lead.routed');
    expect(receiver.posts).toEqual([plain]);

    // Viewers read the queue; managers and above decide.
    const createdViewer = await call(
      'POST',
      '/api/users',
      {
        email: 'review.viewer@example.edu',
        first_name: 'Vi',
        last_name: 'Ewer',
        role: 'viewer',
        password: 'Viewer-Passw0rd',
      },
      token,
    );
    expect(createdViewer.status, JSON.stringify(createdViewer.body)).toBe(201);
    const viewer = String(
      (await call('POST', '/api/auth/login', { email: 'review.viewer@example.edu', password: 'Viewer-Passw0rd' })).body[
        'token'
      ],
    );
    const viewerQueue = await call('GET', '/api/review-queue', undefined, viewer);
    expect(viewerQueue.status).toBe(200);
    expect(viewerQueue.body['meta']).toMatchObject({ total: 2 });
    const refused = await call('POST', `/api/review-queue/${approved}/approve`, {}, viewer);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'INSUFFICIENT_PERMISSIONS' } });
    const refusedBulk = await call(
      'POST',
      '/api/review-queue/decide',
      { lead_ids: [approved], decision: 'approve' },
      viewer,
    );
    expect(refusedBulk.status).toBe(403);

    const approval = await call('POST', `/api/review-queue/${approved}/approve`, {}, token);
    expect(approval.status, JSON.stringify(approval.body)).toBe(202);
    expect(data(approval.body)).toMatchObject({ lead_id: approved, decision: 'approve', reviewer: userId });
    const rejection = await call('POST', `/api/review-queue/${rejected}/reject`, { reason: 'a bot, surely' }, token);
    expect(rejection.status, JSON.stringify(rejection.body)).toBe(202);

    await until(
      () => lead(approved),
      (value) => value['crm_sync_status'] === 'synced',
      'the approved lead synced',
    );
    const gone = await until(
      () => lead(rejected),
      (value) => value['status'] === 'rejected',
      'the rejection',
    );
    expect(gone['crm_sync_status']).toBe('not_applicable');
    const approvedActivity = await until(
      () => activity(approved),
      (entries) => entries.some((entry) => entry.event === 'lead.crm_synced'),
      'lead.crm_synced of the approved lead',
    );
    const events = approvedActivity.map((entry) => entry.event);
    expect(events.indexOf('lead.reviewed')).toBeGreaterThan(-1);
    expect(events.indexOf('lead.routed')).toBeGreaterThan(events.indexOf('lead.reviewed'));
    expect(approvedActivity.find((entry) => entry.event === 'lead.reviewed')?.metadata).toMatchObject({
      decision: 'approve',
      reviewer: userId,
      flags: ['possible_bot'],
      automatic: false,
    });
    const rejectedActivity = await until(
      () => activity(rejected),
      (entries) => entries.some((entry) => entry.event === 'lead.rejected'),
      'lead.rejected of the rejected lead',
    );
    expect(rejectedActivity.find((entry) => entry.event === 'lead.reviewed')?.metadata).toMatchObject({
      decision: 'reject',
      reviewer: userId,
      reason: 'a bot, surely',
    });
    expect(rejectedActivity.map((entry) => entry.event)).not.toContain('lead.routed');

    // The timeline (docs/timeline.md): the decision is the `reviewed` stage, from the hold to the
    // decision, between the held route and the route (and CRM sync) that followed the approval.
    const approvedTimeline = await until(
      () => timeline(approved),
      (entries) => entries.some((entry) => entry.stage === 'crm_synced'),
      'crm_synced on the approved lead’s timeline',
    );
    const steps = approvedTimeline
      .filter((entry) => entry.stage !== 'webhook_delivered')
      .map((entry) => `${entry.stage}:${entry.outcome}`);
    expect(steps.slice(steps.indexOf('routed:held for review'))).toEqual([
      'routed:held for review',
      'reviewed:approved',
      'routed:routed',
      'crm_synced:synced',
    ]);
    const review = approvedTimeline.find((entry) => entry.stage === 'reviewed')!;
    expect(review.detail).toMatchObject({ reviewer: userId, automatic: false });
    expect(review.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(review.finished_at) - Date.parse(review.started_at)).toBe(review.duration_ms);
    for (const entry of approvedTimeline) expect(entry.duration_ms, entry.stage).toBeGreaterThanOrEqual(0);
    const rejectedTimeline = await timeline(rejected);
    expect(rejectedTimeline.find((entry) => entry.stage === 'reviewed')).toMatchObject({
      outcome: 'rejected',
      detail: { reviewer: userId, automatic: false, reason: 'a bot, surely' },
    });
    expect(rejectedTimeline.map((entry) => entry.stage)).not.toContain('crm_synced');
    // The approval was decided after the rejection was produced: the rejected lead was never sent.
    expect(receiver.posts.sort()).toEqual([plain, approved].sort());
    expect((await queue())['meta']).toMatchObject({ total: 0 });

    const again = await call('POST', `/api/review-queue/${approved}/approve`, {}, token);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'LEAD_NOT_IN_REVIEW' } });
    const noReason = await call('POST', `/api/review-queue/${approved}/reject`, {}, token);
    expect(noReason.status).toBe(400);
    expect(noReason.body).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: [{ field: 'reason' }] } });
  }, 120_000);

  it('decides up to 100 at once, each lead reporting its own outcome', async () => {
    const first = await ingestFlagged('bulk.one');
    const second = await ingestFlagged('bulk.two');
    await until(queuedIds, (ids) => ids.includes(first) && ids.includes(second), 'both leads queued');
    const tooMany = await call(
      'POST',
      '/api/review-queue/decide',
      { lead_ids: Array.from({ length: 101 }, (_, index) => `lead_${index}`), decision: 'reject', reason: 'x' },
      token,
    );
    expect(tooMany.status).toBe(400);
    const decided = await call(
      'POST',
      '/api/review-queue/decide',
      { lead_ids: [first, second, 'lead_missing'], decision: 'reject', reason: 'spam wave' },
      token,
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(202);
    expect(decided.body).toMatchObject({
      success: true,
      decided: 2,
      failed: 1,
      results: [
        { id: first, success: true },
        { id: second, success: true },
        { id: 'lead_missing', success: false, error: { code: 'LEAD_NOT_FOUND' } },
      ],
    });
    for (const id of [first, second])
      await until(
        () => lead(id),
        (value) => value['status'] === 'rejected',
        `the rejection of ${id}`,
      );
    expect(receiver.posts).not.toContain(first);
    expect(receiver.posts).not.toContain(second);
  }, 120_000);

  it('reads and checks the review settings as organization settings', async () => {
    const settingsOf = async () =>
      data((await call('GET', '/api/organization', undefined, token)).body)['settings'] as Record<string, unknown>;
    expect(await settingsOf()).toMatchObject({
      review_sla_hours: null,
      auto_decision_after_hours: null,
      auto_decision: null,
    });
    const refused = await call(
      'PATCH',
      '/api/organization',
      { settings: { review_sla_hours: 0, auto_decision_after_hours: 'soon', auto_decision: 'maybe' } },
      token,
    );
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    const errorOf = (body: Record<string, unknown>) =>
      body['error'] as { code: string; details: Array<{ field: string }> };
    expect(errorOf(refused.body).code).toBe('VALIDATION_ERROR');
    expect(
      errorOf(refused.body)
        .details.map((detail) => detail.field)
        .sort(),
    ).toEqual(['settings.auto_decision', 'settings.auto_decision_after_hours', 'settings.review_sla_hours']);
    // A wait without a decision is refused.
    const noDecision = await call('PATCH', '/api/organization', { settings: { auto_decision_after_hours: 24 } }, token);
    expect(noDecision.status, JSON.stringify(noDecision.body)).toBe(400);
    expect(errorOf(noDecision.body).details.map((detail) => detail.field)).toEqual(['settings.auto_decision']);
    expect(await settingsOf()).toMatchObject({ review_sla_hours: null, auto_decision_after_hours: null });
    // The separate settings endpoint is gone.
    expect((await call('GET', '/api/review-queue/settings', undefined, token)).status).toBe(404);
  }, 60_000);

  it('marks overdue leads, and the automatic decision decides a waiting lead once, across restarts', async () => {
    // An SLA of 0.36 s: the lead is overdue as soon as it is held, and /metrics counts it.
    const sla = await call('PATCH', '/api/organization', { settings: { review_sla_hours: 0.0001 } }, token);
    expect(sla.status, JSON.stringify(sla.body)).toBe(200);
    expect(data(sla.body)['settings']).toMatchObject({
      review_sla_hours: 0.0001,
      auto_decision_after_hours: null,
      auto_decision: null,
    });
    const waiting = await ingestFlagged('auto.decided');
    const listed = await until(
      () => queue(),
      (body) => (body['data'] as Array<Record<string, unknown>>).some((item) => item['overdue'] === true),
      'the lead overdue in the queue',
    );
    expect((listed['data'] as Array<Record<string, unknown>>).map((item) => item['lead_id'])).toEqual([waiting]);
    await until(
      async () => (await fetch(`${base}/metrics`)).text(),
      (text) => /^leadstream_review_overdue_leads 1$/m.test(text),
      'the overdue count in /metrics',
    );

    // Stopped before it was due; decided by the restarted process.
    await restart();
    const auto = await call(
      'PATCH',
      '/api/organization',
      { settings: { auto_decision_after_hours: 0.0005, auto_decision: 'approve' } },
      token,
    );
    expect(auto.status, JSON.stringify(auto.body)).toBe(200);
    expect(data(auto.body)['settings']).toMatchObject({
      review_sla_hours: 0.0001,
      auto_decision_after_hours: 0.0005,
      auto_decision: 'approve',
    });
    await until(
      () => lead(waiting),
      (value) => value['crm_sync_status'] === 'synced',
      'the automatic approval',
    );
    await restart();
    // A few runs of the job after the restart (every 200 ms) decide nothing more.
    await until(
      async () => (await fetch(`${base}/metrics`)).text(),
      (text) => /^leadstream_review_overdue_leads 0$/m.test(text),
      'a run of the restarted job',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const entries = await activity(waiting);
    const reviews = entries.filter((entry) => entry.event === 'lead.reviewed');
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.metadata).toMatchObject({ decision: 'approve', reviewer: 'automatic', automatic: true });
    expect(entries.filter((entry) => entry.event === 'lead.routed')).toHaveLength(1);
    expect(receiver.posts.filter((id) => id === waiting)).toHaveLength(1);
  }, 240_000);
});
