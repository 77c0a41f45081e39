/**
 * Wakes a sleeping consumer loop when something it may care about happens (a produce, a
 * rebalance, a released partition, a stop). A notify that arrives while the loop is busy is kept,
 * so the next wait returns at once instead of missing it.
 *
 * The loop wakes on the event loop's next check phase (setImmediate), not at once: every produce
 * of the current turn (all the HTTP requests that arrived together, the outputs of the batches
 * that ran) lands first, so the consumer takes them as one batch and one commit.
 */
export class WakeSignal {
  private pending = false;
  private wake: (() => void) | undefined;

  notify(): void {
    this.pending = true;
    this.wake?.();
  }

  /** Forgets earlier notifies; call before looking for work. */
  clear(): void {
    this.pending = false;
  }

  /** Resolves on the next notify, or after `ms`. */
  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return new Promise((resolve) => setImmediate(resolve));
    }
    return new Promise((resolve) => {
      let woken = false;
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        this.pending = false;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.wake = () => {
        if (woken) return;
        woken = true;
        setImmediate(done);
      };
    });
  }
}
