import { ConsumerRunner, type ConsumerRunnerOptions, type Logger } from '@leadstream/runtime';
import type { ExportWorker } from './export.stage';

/** How often a process running the export stage sweeps (expired files, abandoned exports). */
export const EXPORT_SWEEP_MS = 60_000;

/**
 * The export stage's consumer plus what runs beside it: generations started by its records and
 * the periodic sweep. Stopping stops consuming first, then the sweep, then the generations (whose
 * exports the next process restarts).
 */
export class ExportStageRunner extends ConsumerRunner {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(
    options: Omit<ConsumerRunnerOptions, 'eachRecord' | 'eachBatch'>,
    private readonly worker: ExportWorker,
    private readonly logger: Logger,
    private readonly sweepMs = EXPORT_SWEEP_MS,
  ) {
    super({ ...options, eachRecord: worker.handle });
  }

  override async start(): Promise<void> {
    await super.start();
    this.timer = setInterval(() => void this.sweep(), this.sweepMs);
    this.timer.unref();
    void this.sweep();
  }

  override async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await super.stop();
    await this.sweeping;
    await this.worker.stop();
  }

  /** One sweep at a time; a failure is logged and the next tick tries again. */
  sweep(): Promise<unknown> {
    this.sweeping = this.sweeping.then(() =>
      this.worker.sweep().then(
        (result) => {
          if (result.expired + result.restarted > 0) this.logger.info(result, 'export sweep');
        },
        (error: unknown) => this.logger.warn({ err: error }, 'export sweep failed'),
      ),
    );
    return this.sweeping;
  }
}
