/**
 * Outcomes of outbound calls a stage made, kept before its batch commits, so that a batch run
 * again (a write conflict, a failed commit, its records tried one at a time) applies the outcome
 * instead of calling again. Keyed by what identifies one call (a delivery attempt, a rule webhook
 * call); the oldest are dropped past `limit`, and a call that threw is forgotten, so the next run
 * makes it. In process memory: a crash between a call and the commit still calls again
 * (at-least-once).
 */
export class KeptOutcomes<T> {
  private readonly outcomes = new Map<string, Promise<T>>();

  constructor(private readonly limit = 10_000) {}

  get(key: string): Promise<T> | undefined {
    return this.outcomes.get(key);
  }

  keep(key: string, outcome: Promise<T>): void {
    if (this.outcomes.size >= this.limit) this.outcomes.delete(this.outcomes.keys().next().value as string);
    this.outcomes.set(key, outcome);
    outcome.catch(() => {
      if (this.outcomes.get(key) === outcome) this.outcomes.delete(key);
    });
  }

  forget(key: string): void {
    this.outcomes.delete(key);
  }
}
