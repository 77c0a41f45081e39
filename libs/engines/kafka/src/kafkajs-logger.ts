/**
 * Routes kafkajs's own log lines into our logger (pino or anything with the same methods), at
 * WARN and above: kafkajs is very talkative below that, especially during rebalances.
 */
import type { logCreator, LogEntry } from 'kafkajs';
import { logLevel } from './kafkajs-runtime';

export interface KafkaLogLogger {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

export const KAFKAJS_LOG_LEVEL = logLevel.WARN;

export function kafkajsLogCreator(logger: KafkaLogLogger | undefined): logCreator {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      if (!logger) return;
      const { message, ...fields } = log;
      const entry = { kafkajs: namespace, ...fields };
      if (level === logLevel.ERROR) logger.error(entry, message);
      else if (level === logLevel.WARN) logger.warn(entry, message);
      else logger.info(entry, message);
    };
}
