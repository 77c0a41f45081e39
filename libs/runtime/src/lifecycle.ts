import type { Logger } from 'pino';

interface StopHook {
  name: string;
  stop: () => Promise<void>;
}

/**
 * Ordered, graceful shutdown for one process. Parts register a stop hook as they start; on
 * SIGTERM or SIGINT the hooks run in reverse order (stop taking work first, close engines last),
 * each awaited, within one overall deadline. A second signal, or the deadline, exits at once.
 */
export class Lifecycle {
  private readonly hooks: StopHook[] = [];
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  onStop(name: string, stop: () => Promise<void>): void {
    this.hooks.push({ name, stop });
  }

  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /** Runs every stop hook once, newest first. Later calls return the same promise. */
  stop(reason: string): Promise<void> {
    this.stopping ??= this.runHooks(reason);
    return this.stopping;
  }

  private async runHooks(reason: string): Promise<void> {
    this.logger.info({ reason }, 'shutting down');
    for (const hook of [...this.hooks].reverse()) {
      try {
        await hook.stop();
        this.logger.info({ part: hook.name }, 'stopped');
      } catch (error) {
        this.logger.error({ part: hook.name, err: error }, 'stop failed');
      }
    }
    this.logger.info('shutdown complete');
  }

  /** Wires SIGTERM and SIGINT to a graceful stop, then exits the process. */
  handleSignals(): void {
    const onSignal = (signal: NodeJS.Signals): void => {
      if (this.isStopping) {
        this.logger.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      const timer = setTimeout(() => {
        this.logger.error({ timeoutMs: this.timeoutMs }, 'shutdown deadline passed: exiting');
        process.exit(1);
      }, this.timeoutMs);
      timer.unref();
      this.stop(signal).then(
        () => process.exit(process.exitCode ?? 0),
        () => process.exit(1),
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
}
