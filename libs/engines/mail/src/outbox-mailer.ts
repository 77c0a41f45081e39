/**
 * Mail without an SMTP server: each message becomes one JSON file in `DATA_DIR/outbox/`, named so
 * that a directory listing sorts oldest first. For development and tests; the log names the file
 * but never its body, which holds reset and invitation tokens.
 */
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mailer, MailMessage } from '@leadstream/ports';

export interface OutboxLogger {
  info(obj: object, msg?: string): void;
}

export interface OutboxMailerOptions {
  dir: string;
  from: string;
  logger?: OutboxLogger;
  clock?: () => Date;
}

/** The content of one outbox file. */
export interface OutboxMessage extends MailMessage {
  from: string;
  created_at: string;
}

export class OutboxMailer implements Mailer {
  readonly transport = 'outbox' as const;

  constructor(private readonly options: OutboxMailerOptions) {}

  async send(message: MailMessage): Promise<void> {
    const now = (this.options.clock ?? (() => new Date()))();
    await mkdir(this.options.dir, { recursive: true, mode: 0o700 });
    // Mails hold reset and invitation tokens: a directory an earlier version left readable is tightened.
    const dir = await stat(this.options.dir);
    if ((dir.mode & 0o077) !== 0 && dir.uid === process.getuid?.()) await chmod(this.options.dir, 0o700);
    const name = `${now.toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.json`;
    const content: OutboxMessage = { from: this.options.from, ...message, created_at: now.toISOString() };
    // Written under a temporary name and renamed, so a reader never sees half a message.
    const path = join(this.options.dir, name);
    await writeFile(`${path}.tmp`, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
    await rename(`${path}.tmp`, path);
    this.options.logger?.info(
      { file: path, subject: message.subject },
      'mail written to the outbox (no SMTP_URL configured)',
    );
  }

  async close(): Promise<void> {}
}
