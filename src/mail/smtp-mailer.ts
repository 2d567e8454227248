import { createTransport } from 'nodemailer';
import type { EmailSettings } from '../config/app-config';

// Sending over SMTP with nodemailer (issue 14 item 3). Infrastructure: knows messages and connections, not
// notifications. Weblate's send_mails (integration.md §4.6) opens one connection per batch of at most 200
// mails (below exim's 500 messages per connection) and retries connection errors later; sendBatch does the
// same and tells the caller, per mail, whether it went out, should be retried, or was refused for good.

/** Mails sent over one SMTP connection. */
export const MAILS_PER_CONNECTION = 200;

export interface OutgoingMail {
  fromName: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Message-ID, In-Reply-To and References go to nodemailer's own options; the rest are sent as they are. */
  headers: Record<string, string>;
}

export type SendOutcome =
  | { status: 'sent' }
  /** The connection failed or the server answered 4xx: try again later. */
  | { status: 'retry'; reason: string }
  /** The server refused this mail with 5xx: sending it again changes nothing. */
  | { status: 'refused'; reason: string };

/** nodemailer's error codes for a connection that could not be opened or broke (Weblate: SMTPConnectError, OSError). */
const CONNECTION_ERRORS = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPROTOCOL', 'ETLS', 'EAUTH', 'ENOENT']);

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
}

/** Whether a failed mail is worth another try, and a reason that never contains the password. */
export function classifySendError(error: unknown): SendOutcome {
  const { code, responseCode, message } = error as SmtpError;
  const reason = [code, responseCode, message].filter((part) => part !== undefined && part !== '').join(' ').slice(0, 500);
  if (typeof responseCode === 'number' && responseCode >= 500 && code !== 'EAUTH') return { status: 'refused', reason };
  if ((code !== undefined && CONNECTION_ERRORS.has(code)) || (typeof responseCode === 'number' && responseCode >= 400)) return { status: 'retry', reason };
  // Unknown failures (a bug, a broken message) are treated as refusals so one bad mail cannot block the queue.
  return { status: 'refused', reason };
}

/** Removes line breaks and quotes from a display name: it becomes part of the From header. */
function displayName(name: string): string {
  return name.replace(/[\r\n"\\]+/g, ' ').trim().slice(0, 200);
}

export class SmtpMailer {
  constructor(
    private readonly settings: EmailSettings,
    private readonly xMailer: string,
  ) {}

  /**
   * Sends `mails` (at most MAILS_PER_CONNECTION) over one connection, one after the other, and reports each
   * outcome through `report` as soon as it is known. After a connection error the rest of the batch is
   * reported for retry without being tried: the server is not reachable now.
   */
  async sendBatch(mails: readonly OutgoingMail[], report: (index: number, outcome: SendOutcome) => Promise<void>): Promise<void> {
    const { host, port, user, password, useTls, useSsl, fromAddress } = this.settings;
    const transport = createTransport({
      pool: true,
      maxConnections: 1,
      maxMessages: MAILS_PER_CONNECTION,
      host,
      port,
      secure: useSsl,
      // Django's SMTP backend without EMAIL_USE_TLS talks plain SMTP; with it, STARTTLS is required.
      requireTLS: useTls,
      ignoreTLS: !useTls && !useSsl,
      auth: user !== undefined ? { user, pass: password ?? '' } : undefined,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
      logger: false,
      debug: false,
    });
    try {
      let broken: string | undefined;
      for (const [index, mail] of mails.entries()) {
        if (broken !== undefined) {
          await report(index, { status: 'retry', reason: broken });
          continue;
        }
        const { 'Message-ID': messageId, 'In-Reply-To': inReplyTo, References: references, ...headers } = mail.headers;
        let outcome: SendOutcome;
        try {
          await transport.sendMail({
            from: { name: displayName(mail.fromName), address: fromAddress },
            to: mail.to,
            subject: mail.subject,
            html: mail.html,
            text: mail.text,
            messageId,
            inReplyTo,
            references,
            headers,
            xMailer: this.xMailer,
          });
          outcome = { status: 'sent' };
        } catch (error) {
          outcome = classifySendError(error);
          const { code } = error as SmtpError;
          if (outcome.status === 'retry' && code !== undefined && CONNECTION_ERRORS.has(code)) broken = outcome.reason;
        }
        await report(index, outcome);
      }
    } finally {
      transport.close();
    }
  }
}
