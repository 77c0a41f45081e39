import Router from '@koa/router';
import type { Metrics } from '@leadstream/runtime';

/** A named check of one engine or dependency; throws when it is not reachable. */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
  /** Extra state to show in /readyz (e.g. DNS availability) that does not make the process unready. */
  details?: () => Record<string, unknown>;
  /**
   * A dependency the process does its work without (analytics for a process that ingests): when
   * the check fails, /readyz shows it `degraded` with the error and the process stays ready, so
   * an outage there never takes the process out of service.
   */
  degradeOnly?: boolean;
}

const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: ReadinessCheck): Promise<{ ok: boolean; error?: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check.check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/healthz` says the process is alive; `/readyz` says every engine answers (503 otherwise; a
 * degrade-only check that fails, or a stuck partition, answers 200 with status `degraded`);
 * `/metrics` is the Prometheus exposition of this process.
 */
export function opsRoutes(checks: ReadinessCheck[], metrics: Metrics, isStopping: () => boolean = () => false): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const results = await Promise.all(
      checks.map(async (check) => {
        const result = await runCheck(check);
        const outcome: Record<string, unknown> =
          !result.ok && check.degradeOnly ? { ok: true, status: 'degraded', error: result.error } : result;
        return [check.name, { ...outcome, ...check.details?.() }] as const;
      }),
    );
    const ready = !isStopping() && results.every(([, result]) => result.ok);
    const degraded = results.some(([, result]) => result['status'] === 'degraded');
    ctx.status = ready ? 200 : 503;
    ctx.body = {
      status: ready ? (degraded ? 'degraded' : 'ready') : isStopping() ? 'stopping' : 'unready',
      checks: Object.fromEntries(results),
    };
  });
  router.get('/metrics', async (ctx) => {
    ctx.set('Content-Type', metrics.contentType);
    ctx.body = await metrics.render();
  });
  return router;
}
