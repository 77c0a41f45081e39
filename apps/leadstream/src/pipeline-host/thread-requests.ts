/**
 * What the main thread of `start` asks the pipeline thread: its metrics (for /metrics) and its
 * readiness checks (for /readyz). Each question waits for its answer at most `timeoutMs`: a thread
 * that is busy or wedged makes the call fail with a reason instead of hanging, and a call leaves
 * no listener on the channel once it is answered or has timed out.
 */
import type { ReadinessCheck } from '@leadstream/http';
import type { RemoteMetrics } from '@leadstream/runtime';
import type { Channel } from './channel-calls';

/**
 * How long an answer of the pipeline thread may take. Below /readyz's own limit of a check (2 s),
 * so /readyz names the thread as the reason.
 */
export const THREAD_ANSWER_TIMEOUT_MS = 1_500;

type CheckResult = { name: string; ok: boolean; error?: string; details: Record<string, unknown> };

export interface ThreadRequests {
  metrics: RemoteMetrics;
  /** One check per name; the checks of one /readyz share one question to the thread. */
  readiness: ReadinessCheck[];
}

export interface ThreadRequestOptions {
  timeoutMs?: number;
}

/**
 * Sends `{kind, id}` and resolves with the thread's `{kind: '<kind>.reply', id}`; rejects after
 * `timeoutMs`. The listener and the timer go away either way.
 */
function ask<T>(channel: Channel, kind: string, id: number, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onMessage = (message: unknown): void => {
      const reply = message as { kind?: string; id?: number } | null;
      if (reply?.kind !== `${kind}.reply` || reply.id !== id) return;
      clearTimeout(timer);
      channel.off('message', onMessage);
      resolve(message as T);
    };
    const timer = setTimeout(() => {
      channel.off('message', onMessage);
      reject(new Error(`the pipeline thread did not answer ${kind} within ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref?.();
    channel.on('message', onMessage);
    channel.postMessage({ kind, id });
  });
}

export function threadRequests(
  channel: Channel,
  checkNames: string[],
  options: ThreadRequestOptions = {},
): ThreadRequests {
  const timeoutMs = options.timeoutMs ?? THREAD_ANSWER_TIMEOUT_MS;
  let nextId = 0;

  const metrics: RemoteMetrics = async () =>
    (await ask<{ metrics?: Awaited<ReturnType<RemoteMetrics>> }>(channel, 'host.metrics', nextId++, timeoutMs))
      .metrics ?? [];

  let asking: Promise<CheckResult[]> | undefined;
  const askReadiness = (): Promise<CheckResult[]> => {
    asking ??= ask<{ checks?: CheckResult[] }>(channel, 'host.readiness', nextId++, timeoutMs)
      .then((reply) => reply.checks ?? [])
      .finally(() => (asking = undefined));
    return asking;
  };
  const lastDetails = new Map<string, Record<string, unknown>>();
  const readiness: ReadinessCheck[] = checkNames.map((name) => ({
    name,
    check: async () => {
      // Details of an earlier answer are not shown beside a question left unanswered.
      lastDetails.delete(name);
      const result = (await askReadiness()).find((entry) => entry.name === name);
      lastDetails.set(name, result?.details ?? {});
      if (!result?.ok) throw new Error(result?.error ?? `the pipeline thread has no check ${name}`);
    },
    details: () => lastDetails.get(name) ?? {},
  }));
  return { metrics, readiness };
}
