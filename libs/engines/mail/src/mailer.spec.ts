import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from './create-mailer';
import type { OutboxMessage } from './outbox-mailer';

interface Received {
  from: string | undefined;
  to: string[];
  user: string | undefined;
  raw: string;
}

let server: SMTPServer;
let port: number;
const received: Received[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('SMTP mailer', () => {
  it('authenticates with the credentials of the URL and delivers the message', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:s3cret@127.0.0.1:${port}`,
      from: 'LeadStream <no-reply@leadstream.test>',
      outboxDir: '/nonexistent',
    });
    expect(mailer.transport).toBe('smtp');
    try {
      await mailer.send({
        to: 'ann@college.edu',
        subject: 'Reset your password',
        text: 'Open https://app.test/reset-password?token=abc',
      });
    } finally {
      await mailer.close();
    }
    const message = received.at(-1);
    expect(message).toMatchObject({ from: 'no-reply@leadstream.test', to: ['ann@college.edu'], user: 'mailer' });
    expect(message?.raw).toContain('Subject: Reset your password');
    expect(message?.raw).toContain('token=abc');
  });

  it('fails the send when the server refuses the credentials', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:wrong@127.0.0.1:${port}`,
      from: 'no-reply@leadstream.test',
      outboxDir: '/nonexistent',
    });
    try {
      await expect(mailer.send({ to: 'ann@college.edu', subject: 's', text: 't' })).rejects.toThrow(
        /Invalid username or password|535|auth/i,
      );
    } finally {
      await mailer.close();
    }
  });
});

describe('outbox mailer', () => {
  it('writes each message as a private JSON file and logs the file, not the body', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadstream-outbox-'));
    dirs.push(dir);
    const logged: Array<Record<string, unknown>> = [];
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'no-reply@leadstream.test',
      outboxDir: join(dir, 'outbox'),
      logger: { info: (obj) => logged.push(obj as Record<string, unknown>) },
    });
    expect(mailer.transport).toBe('outbox');
    await mailer.send({ to: 'a@x.edu', subject: 'First', text: 'secret-token-1' });
    await mailer.send({ to: 'b@x.edu', subject: 'Second', text: 'secret-token-2' });
    const files = readdirSync(join(dir, 'outbox')).sort();
    expect(files).toHaveLength(2);
    const messages = files.map((file) => JSON.parse(readFileSync(join(dir, 'outbox', file), 'utf8')) as OutboxMessage);
    expect(messages.map((message) => [message.to, message.subject, message.text, message.from])).toEqual([
      ['a@x.edu', 'First', 'secret-token-1', 'no-reply@leadstream.test'],
      ['b@x.edu', 'Second', 'secret-token-2', 'no-reply@leadstream.test'],
    ]);
    expect(statSync(join(dir, 'outbox', files[0]!)).mode & 0o777).toBe(0o600);
    expect(JSON.stringify(logged)).not.toContain('secret-token');
    expect(logged[0]).toMatchObject({ subject: 'First' });
  });

  it('keeps the outbox directory private (0700), also one an earlier version made readable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadstream-outbox-'));
    dirs.push(dir);
    const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);
    const fresh = createMailer({
      smtpUrl: undefined,
      from: 'no-reply@leadstream.test',
      outboxDir: join(dir, 'fresh', 'outbox'),
    });
    await fresh.send({ to: 'a@x.edu', subject: 'Reset', text: 'secret-token' });
    expect([join(dir, 'fresh'), join(dir, 'fresh', 'outbox')].map(mode)).toEqual(['700', '700']);
    mkdirSync(join(dir, 'earlier'));
    chmodSync(join(dir, 'earlier'), 0o755);
    const earlier = createMailer({
      smtpUrl: undefined,
      from: 'no-reply@leadstream.test',
      outboxDir: join(dir, 'earlier'),
    });
    await earlier.send({ to: 'a@x.edu', subject: 'Reset', text: 'secret-token' });
    expect(mode(join(dir, 'earlier'))).toBe('700');
    expect(readdirSync(join(dir, 'earlier')).map((file) => mode(join(dir, 'earlier', file)))).toEqual(['600']);
  });
});
