/**
 * The mailer port: sends one message. Engines: SMTP (nodemailer) when SMTP_URL is configured,
 * otherwise an outbox directory that development and tests read (libs/engines/mail).
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  /** Resolves once the message is handed over (accepted by the SMTP server, or written). */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
