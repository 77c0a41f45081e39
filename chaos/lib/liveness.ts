/**
 * A liveness check on the private FerretDB, as a deployment's supervisor (a Kubernetes liveness
 * probe, systemd's watchdog) runs one on a server: every few seconds a fresh client asks for the
 * database list, which FerretDB answers from PostgreSQL. An error answer (PostgreSQL is away) is
 * an answer; no answer at all, three times in a row, is a hung server, which is restarted on the
 * same command line (stopped with SIGQUIT, so its log keeps the stacks of what hung). FerretDB 1.24
 * hangs so after its PostgreSQL is killed under load: requests wait for a connection of its
 * PostgreSQL pool forever while PostgreSQL's connections sit idle (docs/chaos.md). The restarts are
 * reported; the product's invariants must still hold across them.
 */
import { MongoClient } from 'mongodb';
import { crashServer } from './infra';

const EVERY_MS = 2_000;
const ANSWER_WITHIN_MS = 3_000;
/** A DDL statement can hold FerretDB's metadata lock for seconds; a hung FerretDB never answers again. */
const MISSES = 6;

export class FerretdbLiveness {
  readonly restarts: Array<{ at: number; reason: string }> = [];
  private timer: NodeJS.Timeout | undefined;
  private misses = 0;
  private firstMissAt = 0;
  private checking = false;
  private stopped = false;

  constructor(
    private readonly runDir: string,
    private readonly uri: string,
    private readonly onRestart: (reason: string) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.check(), EVERY_MS);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** True when FerretDB answered (even with an error), false when nothing came back in time. */
  private async answers(): Promise<boolean> {
    const client = new MongoClient(this.uri, {
      serverSelectionTimeoutMS: ANSWER_WITHIN_MS,
      connectTimeoutMS: ANSWER_WITHIN_MS,
      socketTimeoutMS: ANSWER_WITHIN_MS,
      maxPoolSize: 1,
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        client
          .db('admin')
          .admin()
          .listDatabases()
          .then(
            () => true,
            (error: unknown) => !/timed out|timeout/i.test(String((error as Error)?.message ?? error)),
          ),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), ANSWER_WITHIN_MS + 500);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      void client.close(true).catch(() => undefined);
    }
  }

  private async check(): Promise<void> {
    if (this.checking || this.stopped) return;
    this.checking = true;
    try {
      if (await this.answers()) {
        this.misses = 0;
        return;
      }
      if (this.misses++ === 0) this.firstMissAt = Date.now();
      if (this.misses < MISSES || this.stopped) return;
      this.misses = 0;
      const reason = `FerretDB answered nothing for ${MISSES} checks in a row (${((Date.now() - this.firstMissAt) / 1000 + ANSWER_WITHIN_MS / 1000).toFixed(0)} s)`;
      // SIGQUIT: the Go runtime writes every goroutine's stack to FerretDB's log before it exits.
      const crashed = await crashServer(this.runDir, 'ferretdb', 'SIGQUIT');
      crashed.restart();
      this.restarts.push({ at: Date.now(), reason });
      this.onRestart(reason);
    } catch (error) {
      this.onRestart(`the liveness check failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.checking = false;
    }
  }
}
