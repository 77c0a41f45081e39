/**
 * Runs the real `leadstream` command as a child process for black-box tests, and collects its
 * JSON log lines so a test can wait for a given message.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');

/**
 * How `leadstream` is run: from the source through tsx, or, when LEADSTREAM_TEST_BUILD names a
 * built `leadstream.js` (.ci/run sets it to the dist/ its build step made), that bundle, as
 * production runs it. The bundle starts in about half the time (no TypeScript loader), which adds
 * up over the hundreds of processes the black-box suites start.
 */
export function commandLine(args: string[]): string[] {
  const built = process.env['LEADSTREAM_TEST_BUILD'];
  return built ? [built, ...args] : ['--import', 'tsx', MAIN, ...args];
}

/**
 * The environment every `leadstream start` under test shares: loopback, a free port, info logs
 * (tests wait for log lines), no MX lookups (no DNS here); `env` adds to it or overrides it.
 */
export function serviceEnv(env: Record<string, string> = {}): Record<string, string> {
  return { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', MX_CHECK: 'off', ...env };
}

export interface LogLine {
  level: string;
  msg: string;
  [key: string]: unknown;
}

interface Waiter {
  test: (line: LogLine) => boolean;
  resolve: (line: LogLine) => void;
}

export class CliProcess {
  readonly lines: LogLine[] = [];
  private stdout = '';
  private stderr = '';
  private readonly waiters: Waiter[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(readonly child: ChildProcess) {
    let buffer = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      this.stdout += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        this.accept(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
      }
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = once(child, 'exit').then(([code, signal]) => ({
      code: code as number | null,
      signal: signal as NodeJS.Signals | null,
    }));
  }

  /**
   * Starts `leadstream <args>` with only the given environment (plus PATH and HOME). Every answer
   * of a service under test is checked against the OpenAPI document (CHECK_RESPONSES=on).
   */
  static start(args: string[], env: Record<string, string>): CliProcess {
    const child = spawn(process.execPath, commandLine(args), {
      // PIPELINE_SPLIT passes through, so .ci/run can run the same specs on the split pipeline.
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        CHECK_RESPONSES: 'on',
        ...(process.env['PIPELINE_SPLIT'] ? { PIPELINE_SPLIT: process.env['PIPELINE_SPLIT'] } : {}),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new CliProcess(child);
  }

  /** Starts `leadstream start` and waits until it listens and is ready; returns it and its URL. */
  static async startService(env: Record<string, string>): Promise<{ server: CliProcess; url: string }> {
    const server = CliProcess.start(['start'], env);
    const listening = await server.waitFor((line) => line.msg === 'api listening', 120_000);
    await server.waitFor((line) => line.msg === 'ready');
    return { server, url: String(listening['url']) };
  }

  /** Runs `leadstream <args>` to its end (warnings only) and returns its stdout; a non-zero exit throws with its stderr. */
  static async output(args: string[], env: Record<string, string>): Promise<string> {
    const command = CliProcess.start(args, { ...env, LOG_LEVEL: 'warn' });
    const exit = await command.exited;
    if (exit.code !== 0) throw new Error(`leadstream ${args.join(' ')} exited ${exit.code}: ${command.errorOutput}`);
    return command.output.trim();
  }

  private accept(raw: string): void {
    let line: LogLine;
    try {
      line = JSON.parse(raw) as LogLine;
    } catch {
      return;
    }
    this.lines.push(line);
    for (const waiter of [...this.waiters]) {
      if (!waiter.test(line)) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  }

  /** Resolves with the first log line (past or future) that passes the test; rejects if the process exits first. */
  waitFor(test: (line: LogLine) => boolean, timeoutMs = 60_000): Promise<LogLine> {
    const seen = this.lines.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for a log line; stderr:\n${this.stderr}`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void this.exited.then(({ code }) => {
        clearTimeout(timer);
        reject(new Error(`process exited (${code}) before the awaited log line; stderr:\n${this.stderr}`));
      });
    });
  }

  /** Everything the process wrote to stdout (log lines and, for CLI commands, their output). */
  get output(): string {
    return this.stdout;
  }

  get errorOutput(): string {
    return this.stderr;
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }
}
