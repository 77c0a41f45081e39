/**
 * Everything a run starts is registered here as it starts (processes, private servers, a mounted
 * tmpfs), and undone newest first at the end: after a pass, a failure, an exception, Ctrl-C or the
 * hard timeout alike. Each step gets a bounded time, so cleaning up can never hang the run.
 */

interface Step {
  name: string;
  run: () => Promise<void> | void;
}

export class Cleanup {
  private readonly steps: Step[] = [];
  private readonly emergency: Array<{ name: string; run: () => void }> = [];
  private running: Promise<void> | undefined;

  /**
   * Registers a synchronous last resort (SIGKILL a child, unmount lazily, stop the servers), run by
   * `runEmergency` when the process must exit before the ordinary steps finish: no child may
   * outlive the run, no filesystem may stay mounted.
   */
  addEmergency(name: string, run: () => void): void {
    this.emergency.push({ name, run });
  }

  /** Runs every last resort, newest first, synchronously; errors are printed, never thrown. */
  runEmergency(): void {
    for (const { name, run } of [...this.emergency].reverse()) {
      try {
        run();
      } catch (error) {
        process.stderr.write(
          `[chaos] emergency cleanup "${name}" failed: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
  }

  /** Registers a step; returns a function that runs it now (and removes it from the list). */
  add(name: string, run: () => Promise<void> | void): () => Promise<void> {
    const step: Step = { name, run };
    this.steps.push(step);
    return async () => {
      const at = this.steps.indexOf(step);
      if (at < 0) return;
      this.steps.splice(at, 1);
      await step.run();
    };
  }

  /** Runs every registered step, newest first, each within `stepTimeoutMs`; errors are printed, never thrown. */
  async runAll(stepTimeoutMs = 40_000): Promise<void> {
    while (this.running) await this.running;
    this.running = (async () => {
      while (this.steps.length > 0) {
        const step = this.steps.pop()!;
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            Promise.resolve().then(step.run),
            new Promise<void>((_resolve, reject) => {
              timer = setTimeout(() => reject(new Error(`did not finish within ${stepTimeoutMs} ms`)), stepTimeoutMs);
            }),
          ]);
        } catch (error) {
          process.stderr.write(
            `[chaos] cleanup "${step.name}" failed: ${error instanceof Error ? error.message : String(error)}\n`,
          );
        } finally {
          clearTimeout(timer);
        }
      }
    })();
    try {
      await this.running;
    } finally {
      this.running = undefined;
    }
  }
}
