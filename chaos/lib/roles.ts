/**
 * The real `leadstream` roles as child processes (`start`, `api`, `worker --stages ...`,
 * `projector`), each with its log in a file, and the fault injections on them: SIGKILL and a
 * restart, as a supervisor (systemd, Kubernetes) would do. A process that exits on its own (a
 * consumer that crashed stops its process by design, README "Scaling workers") is restarted too,
 * and counted: the report lists those exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MAIN = join(ROOT, 'apps', 'leadstream', 'src', 'main.ts');

export interface RoleOptions {
  /** A short name for logs and the report, e.g. "worker crm-sync". */
  name: string;
  args: string[];
  env: Record<string, string>;
  logFile: string;
  /** Told of every exit nobody asked for (before the process is restarted). */
  onUnplannedExit?: (name: string, code: number | null, signal: NodeJS.Signals | null) => void;
  /** Restart a process that exits on its own (default true). */
  supervise?: boolean;
  readyTimeoutMs?: number;
}

export class LeadstreamProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<unknown> = Promise.resolve();
  private readonly log: WriteStream;
  private stopping = false;
  private planned = false;
  private tail: string[] = [];
  readonly unplannedExits: Array<{ code: number | null; signal: NodeJS.Signals | null }> = [];
  starts = 0;

  constructor(private readonly options: RoleOptions) {
    this.log = createWriteStream(options.logFile, { flags: 'a' });
  }

  get name(): string {
    return this.options.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process and resolves once it logged "ready". */
  async start(): Promise<void> {
    this.stopping = false;
    this.planned = false;
    this.starts++;
    this.log.write(
      `\n===== chaos: starting leadstream ${this.options.args.join(' ')} (start ${this.starts}) at ${new Date().toISOString()} =====\n`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...this.options.args], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...this.options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    this.exited = exit;
    let buffer = '';
    let resolveReady!: () => void;
    const ready = new Promise<void>((resolve) => (resolveReady = resolve));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.log.write(chunk);
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        this.remember(line);
        if (line.includes('"msg":"ready"')) resolveReady();
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.log.write(chunk);
      for (const line of chunk.split('\n')) if (line) this.remember(line);
    });
    void exit.then(([code, signal]) => {
      this.log.write(
        `===== chaos: leadstream ${this.options.args.join(' ')} exited (code ${code}, signal ${signal}) at ${new Date().toISOString()} =====\n`,
      );
      if (this.child !== child || this.planned || this.stopping) return;
      this.unplannedExits.push({ code, signal });
      this.options.onUnplannedExit?.(this.name, code, signal);
      if (this.options.supervise === false) return;
      // A supervisor restarts it after a second.
      setTimeout(() => {
        if (this.child === child && !this.stopping)
          this.start().catch((error: unknown) =>
            this.options.onUnplannedExit?.(
              `${this.name} (its restart failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]!})`,
              null,
              null,
            ),
          );
      }, 1_000);
    });
    const timeoutMs = this.options.readyTimeoutMs ?? 120_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        ready,
        exit.then(([code, signal]) => {
          throw new Error(
            `${this.name} exited (code ${code}, signal ${signal}) before it was ready:\n${this.tail.join('\n')}`,
          );
        }),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error(`${this.name} was not ready within ${timeoutMs} ms:\n${this.tail.join('\n')}`)),
            timeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private remember(line: string): void {
    this.tail.push(line.length > 400 ? `${line.slice(0, 400)}...` : line);
    if (this.tail.length > 15) this.tail.shift();
  }

  /** SIGKILL: no shutdown hook runs, nothing in flight is finished or committed. Resolves once it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.planned = true;
    child.kill('SIGKILL');
    await this.exited;
  }

  /** The last resort, synchronous: SIGKILL now, no restart. */
  killNow(): void {
    this.stopping = true;
    this.child?.kill('SIGKILL');
  }

  signal(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  /** A clean stop (SIGTERM), SIGKILL after `timeoutMs`. */
  async stop(timeoutMs = 15_000): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await this.exited;
      clearTimeout(timer);
    }
  }

  /** Stops it if it runs, and closes its log file. */
  async close(): Promise<void> {
    await this.stop(5_000);
    await new Promise<void>((resolve) => this.log.end(resolve));
  }

  /** The exit of a clean stop: code and signal (0 and null when it shut down cleanly). */
  async stopAndReport(timeoutMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const child = this.child;
    await this.stop(timeoutMs);
    return { code: child?.exitCode ?? null, signal: child?.signalCode ?? null };
  }

  get lastLines(): string[] {
    return [...this.tail];
  }
}
