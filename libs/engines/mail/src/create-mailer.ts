import type { Mailer } from '@leadstream/ports';
import { OutboxMailer, type OutboxLogger } from './outbox-mailer';
import { SmtpMailer } from './smtp-mailer';

export interface MailerOptions {
  /** `smtp://…` or `smtps://…`; without it, mail goes to `outboxDir`. */
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger?: OutboxLogger;
}

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) return new SmtpMailer({ url: options.smtpUrl, from: options.from });
  return new OutboxMailer({
    dir: options.outboxDir,
    from: options.from,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
