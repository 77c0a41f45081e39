/**
 * The main thread's calls to the pipeline thread (its metrics for /metrics, its checks for /readyz)
 * over a channel standing for the worker: a thread that never answers makes each call fail after
 * the time limit, and no call leaves a listener behind, answered or not.
 */
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { threadRequests } from './thread-requests';

/** A pipeline thread that takes every request and answers only what `answer` gives. */
class FakeThread extends EventEmitter {
  readonly requests: Array<{ kind: string; id: number }> = [];
  answer: (request: { kind: string; id: number }) => unknown = () => undefined;

  postMessage(message: unknown): void {
    const request = message as { kind: string; id: number };
    this.requests.push(request);
    const reply = this.answer(request);
    if (reply !== undefined) queueMicrotask(() => this.emit('message', reply));
  }
}

/** Whether a promise has settled yet, and how. */
function track<T>(promise: Promise<T>): { state: () => 'pending' | 'resolved' | 'rejected'; error: () => unknown } {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  let error: unknown;
  promise.then(
    () => (state = 'resolved'),
    (reason: unknown) => {
      state = 'rejected';
      error = reason;
    },
  );
  return { state: () => state, error: () => error };
}

let thread: FakeThread;
beforeEach(() => {
  vi.useFakeTimers();
  thread = new FakeThread();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('calls to the pipeline thread', () => {
  it('a metrics call the thread never answers fails after the time limit and leaves no listener', async () => {
    const requests = threadRequests(thread, [], { timeoutMs: 1_000 });
    const calls = [track(requests.metrics()), track(requests.metrics()), track(requests.metrics())];
    expect(thread.listenerCount('message')).toBe(3);

    await vi.advanceTimersByTimeAsync(999);
    expect(calls.map((call) => call.state())).toEqual(['pending', 'pending', 'pending']);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((call) => call.state())).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String(calls[0]?.error())).toContain('the pipeline thread did not answer host.metrics within 1000 ms');
    expect(thread.listenerCount('message')).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an answered call resolves with the reply of its own id, and leaves no listener or timer', async () => {
    const json = [
      {
        name: 'leadstream_messages_consumed_total',
        help: 'h',
        type: 'counter',
        aggregator: 'sum',
        values: [{ value: 3, labels: {} }],
      },
    ];
    thread.answer = (request) =>
      request.kind === 'host.metrics' ? { kind: 'host.metrics.reply', id: request.id, metrics: json } : undefined;
    const requests = threadRequests(thread, [], { timeoutMs: 1_000 });
    await expect(requests.metrics()).resolves.toEqual(json);
    expect(thread.listenerCount('message')).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a readiness check the thread never answers fails with a reason naming the thread, and leaves no listener', async () => {
    const requests = threadRequests(thread, ['dns', 'log:kafka'], { timeoutMs: 1_500 });
    const checks = requests.readiness.map((check) => track(check.check()));
    // The checks of one /readyz share one question to the thread.
    expect(thread.requests.filter((request) => request.kind === 'host.readiness')).toHaveLength(1);
    expect(thread.listenerCount('message')).toBe(1);

    await vi.advanceTimersByTimeAsync(1_500);
    expect(checks.map((check) => check.state())).toEqual(['rejected', 'rejected']);
    expect(String(checks[1]?.error())).toContain('the pipeline thread did not answer host.readiness within 1500 ms');
    expect(thread.listenerCount('message')).toBe(0);
    expect(vi.getTimerCount()).toBe(0);

    // The next /readyz asks again, and an answer makes the checks pass with the thread's details.
    thread.answer = (request) => ({
      kind: 'host.readiness.reply',
      id: request.id,
      checks: [
        { name: 'dns', ok: true, details: { mx_check: 'on', available: true } },
        { name: 'log:kafka', ok: false, error: 'broker down', details: {} },
      ],
    });
    const [dns, kafka] = requests.readiness;
    await expect(dns?.check()).resolves.toBeUndefined();
    expect(dns?.details?.()).toEqual({ mx_check: 'on', available: true });
    await expect(kafka?.check()).rejects.toThrow('broker down');
    expect(thread.listenerCount('message')).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("passes the thread's stuck partitions through: the check holds, its details say degraded", async () => {
    const stuck = [
      { group: 'deliver', topic: 'webhooks.deliveries', partition: 3, offset: '812', in_hand_seconds: 301.2 },
    ];
    thread.answer = (request) => ({
      kind: 'host.readiness.reply',
      id: request.id,
      checks: [
        {
          name: 'partitions:pipeline-thread',
          ok: true,
          details: { status: 'degraded', stuck_after_ms: 120_000, stuck },
        },
      ],
    });
    const [partitions] = threadRequests(thread, ['partitions:pipeline-thread'], { timeoutMs: 1_500 }).readiness;
    await expect(partitions?.check()).resolves.toBeUndefined();
    expect(partitions?.details?.()).toEqual({ status: 'degraded', stuck_after_ms: 120_000, stuck });
  });
});
