/**
 * Password reset over real SMTP: the production SMTP mailer delivers to an `smtp-server` on
 * 127.0.0.1:0 inside the test; the test reads the token from the received message.
 */
import type { AddressInfo } from 'node:net';
import { SmtpMailer } from '@leadstream/engine-mail';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccountsServer, UserApi, type AccountsTestServer } from './accounts.test-support';

let smtp: SMTPServer;
let server: AccountsTestServer;
const inbox: Array<{ to: string[]; raw: string }> = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username === 'relay' && auth.password === 'pw'
        ? callback(null, { user: 'relay' })
        : callback(new Error('Invalid username or password')),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        inbox.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  server = await startAccountsServer({
    mailer: new SmtpMailer({ url: `smtp://relay:pw@127.0.0.1:${port}`, from: 'LeadStream <no-reply@leadstream.test>' }),
  });
});

afterAll(async () => {
  await server?.mailer.close();
  await server?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function received(to: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const message = inbox.find((entry) => entry.to.includes(to));
    if (message) return message.raw;
    if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('password reset by SMTP', () => {
  it('mails a link, resets the password with its token once, and logs in with the new password', async () => {
    const api = new UserApi(server.url);
    await api.register('smtp.user@state.edu', 'SMTP College');
    expect((await api.call('POST', '/api/auth/forgot-password', { email: 'smtp.user@state.edu' })).status).toBe(200);

    // The body is quoted-printable: unfold soft line breaks and decode =XX before reading the link.
    const raw = (await received('smtp.user@state.edu'))
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    expect(raw).toMatch(/Subject: Reset your LeadStream password/);
    const token = /https:\/\/app\.test\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(raw)?.[1];
    expect(token).toBeDefined();

    const reset = await api.call('POST', '/api/auth/reset-password', { token, new_password: 'Sm7pReset' });
    expect(reset.status).toBe(200);
    const login = await api.call('POST', '/api/auth/login', { email: 'smtp.user@state.edu', password: 'Sm7pReset' });
    expect(login.status).toBe(200);
    const again = await api.call('POST', '/api/auth/reset-password', { token, new_password: 'An0therOne' });
    expect(again).toMatchObject({ status: 400, body: { error: { code: 'INVALID_RESET_TOKEN' } } });
  });
});
