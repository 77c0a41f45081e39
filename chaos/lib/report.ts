/**
 * What a chaos run prints: each fault (when it started, how long the component was away, how long
 * until a lead sent after it went through the whole pipeline again), each invariant with its
 * counts, and the figures of the load. A violated invariant or a failed step makes the run fail.
 */

export interface FaultRecord {
  half: string;
  name: string;
  /** Seconds since the start of the run. */
  startedAt: number;
  /** How long the component was away (killed until restarted, or stopped until continued), in seconds. */
  downSeconds: number;
  /** From the fault's start until a probe lead sent after it had every effect, in seconds; undefined when it never did. */
  recoveredAfter: number | undefined;
  /** Answers the load generator got while the fault lasted, by status ("network" for no answer). */
  answers: Record<string, number>;
  note?: string;
}

export interface InvariantRecord {
  half: string;
  name: string;
  ok: boolean;
  counts: string;
  /** The first few offending items, printed when the invariant fails. */
  examples: string[];
}

export class Report {
  private readonly started = Date.now();
  readonly faults: FaultRecord[] = [];
  readonly invariants: InvariantRecord[] = [];
  readonly figures: Array<{ half: string; name: string; value: string }> = [];
  readonly failures: Array<{ half: string; message: string }> = [];
  /** The halves in the order they first reported anything. */
  private readonly halves: string[] = [];

  private seen(half: string): void {
    if (!this.halves.includes(half)) this.halves.push(half);
  }

  /** Seconds since the run started. */
  elapsed(): number {
    return (Date.now() - this.started) / 1000;
  }

  log(message: string): void {
    process.stdout.write(`[chaos +${this.elapsed().toFixed(1).padStart(5)}s] ${message}\n`);
  }

  fault(record: FaultRecord): void {
    this.seen(record.half);
    this.faults.push(record);
    const recovered =
      record.recoveredAfter === undefined ? 'NOT RECOVERED' : `recovered after ${record.recoveredAfter.toFixed(1)} s`;
    this.log(
      `fault "${record.name}": away ${record.downSeconds.toFixed(1)} s, ${recovered}; answers meanwhile ${formatAnswers(record.answers)}`,
    );
    if (record.recoveredAfter === undefined)
      this.fail(record.half, `"${record.name}": the pipeline did not recover within the bound`);
  }

  invariant(half: string, name: string, ok: boolean, counts: string, examples: string[] = []): void {
    this.seen(half);
    this.invariants.push({ half, name, ok, counts, examples: examples.slice(0, 5) });
    this.log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${counts}`);
    if (!ok) for (const example of examples.slice(0, 5)) this.log(`       e.g. ${example}`);
  }

  figure(half: string, name: string, value: string): void {
    this.seen(half);
    this.figures.push({ half, name, value });
  }

  fail(half: string, message: string): void {
    this.seen(half);
    this.failures.push({ half, message });
    this.log(`FAILURE (${half}): ${message}`);
  }

  get ok(): boolean {
    return (
      this.failures.length === 0 && this.invariants.every((invariant) => invariant.ok) && this.invariants.length > 0
    );
  }

  /** The closing report: readable on a terminal and in a CI log. */
  print(): void {
    const out: string[] = [];
    const rule = '='.repeat(100);
    out.push('', rule, `leadstream chaos report (${this.elapsed().toFixed(1)} s in all)`, rule);
    for (const half of this.halves) {
      out.push('', `--- ${half} ---`);
      const faults = this.faults.filter((fault) => fault.half === half);
      if (faults.length > 0) {
        out.push(
          '',
          `${'fault'.padEnd(46)} ${'start'.padStart(8)} ${'away'.padStart(7)} ${'recovered'.padStart(10)}  answers while it lasted`,
        );
        for (const fault of faults) {
          const recovered = fault.recoveredAfter === undefined ? 'NEVER' : `${fault.recoveredAfter.toFixed(1)} s`;
          out.push(
            `${fault.name.padEnd(46)} ${`+${fault.startedAt.toFixed(1)}s`.padStart(8)} ${`${fault.downSeconds.toFixed(1)} s`.padStart(7)} ${recovered.padStart(10)}  ${formatAnswers(fault.answers)}${fault.note ? ` (${fault.note})` : ''}`,
          );
        }
      }
      const figures = this.figures.filter((figure) => figure.half === half);
      if (figures.length > 0) {
        out.push('');
        for (const figure of figures) out.push(`${figure.name.padEnd(46)} ${figure.value}`);
      }
      const invariants = this.invariants.filter((invariant) => invariant.half === half);
      if (invariants.length > 0) {
        out.push('');
        for (const invariant of invariants) {
          out.push(`${invariant.ok ? 'PASS' : 'FAIL'}  ${invariant.name}`);
          out.push(`      ${invariant.counts}`);
          if (!invariant.ok) for (const example of invariant.examples) out.push(`      e.g. ${example}`);
        }
      }
      for (const failure of this.failures.filter((f) => f.half === half)) out.push(`FAILURE: ${failure.message}`);
    }
    out.push('', rule);
    if (this.ok) {
      out.push(`CHAOS PASSED: ${this.invariants.length} invariants held through ${this.faults.length} faults`);
    } else {
      const broken = this.invariants.filter((invariant) => !invariant.ok).length;
      out.push('!'.repeat(100));
      out.push(
        `CHAOS FAILED: ${broken} invariant(s) violated, ${this.failures.length} failure(s)${this.invariants.length === 0 ? ', no invariant was checked' : ''}`,
      );
      for (const invariant of this.invariants.filter((i) => !i.ok))
        out.push(`  VIOLATED (${invariant.half}): ${invariant.name}: ${invariant.counts}`);
      for (const failure of this.failures) out.push(`  FAILED (${failure.half}): ${failure.message}`);
      out.push('!'.repeat(100));
    }
    out.push(rule, '');
    process.stdout.write(`${out.join('\n')}\n`);
  }
}

export function formatAnswers(answers: Record<string, number>): string {
  const entries = Object.entries(answers).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? 'none' : entries.map(([status, count]) => `${count}x${status}`).join(' ');
}
