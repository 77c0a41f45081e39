/**
 * Mail over SMTP with nodemailer. The URL carries everything: `smtp://user:pass@host:587`
 * (STARTTLS when the server offers it) or `smtps://user:pass@host:465` (TLS from the start).
 */
import type { Mailer, MailMessage } from '@leadstream/ports';
import { createTransport, type Transporter } from 'nodemailer';

export interface SmtpMailerOptions {
  url: string;
  from: string;
}

export class SmtpMailer implements Mailer {
  readonly transport = 'smtp' as const;
  private readonly transporter: Transporter;

  constructor(private readonly options: SmtpMailerOptions) {
    // Pooled: reset and invitation mails come in bursts; one connection serves them in turn.
    this.transporter = createTransport(
      options.url.includes('?') ? `${options.url}&pool=true` : `${options.url}?pool=true`,
    );
  }

  async send(message: MailMessage): Promise<void> {
    await this.transporter.sendMail({
      from: this.options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
    });
  }

  async close(): Promise<void> {
    this.transporter.close();
  }
}
