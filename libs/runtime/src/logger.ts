import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  level: string;
  /** The process role, e.g. `api`, `worker`, `projector`, `start`. */
  role: string;
}

/** Structured JSON logs on stdout, one line per entry (pino). */
export function createLogger(options: LoggerOptions): Logger {
  return pino({
    level: options.level,
    base: { role: options.role, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
