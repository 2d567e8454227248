import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { PATIENCE_MS } from './wait';

/**
 * A real SMTP server on 127.0.0.1 (random port) that keeps every message it accepts, parsed. Tests wait for a
 * mail to arrive (an event), never for time to pass.
 */
export class SmtpSink {
  readonly mails: ParsedMail[] = [];
  /** Envelope recipients of each mail, in arrival order. */
  readonly envelopes: string[][] = [];
  private readonly arrivals = new EventEmitter();
  private readonly server: SMTPServer;

  private constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.mails.push(mail);
            this.envelopes.push(session.envelope.rcptTo.map((rcpt) => rcpt.address));
            this.arrivals.emit('mail');
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
  }

  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink();
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    return sink;
  }

  get port(): number {
    return (this.server.server.address() as AddressInfo).port;
  }

  /** Mails addressed to `address`. */
  to(address: string): ParsedMail[] {
    return this.mails.filter((_, index) => this.envelopes[index].includes(address));
  }

  /** Resolves with the first mail (already here or arriving) that `match` accepts; rejects after `timeoutMs`. */
  waitFor(match: (mail: ParsedMail, envelope: string[]) => boolean, timeoutMs = PATIENCE_MS, what = 'a matching mail'): Promise<ParsedMail> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const index = this.mails.findIndex((mail, i) => match(mail, this.envelopes[i]));
        if (index < 0) return false;
        cleanup();
        resolve(this.mails[index]);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`${what}: none arrived within ${timeoutMs} ms (${this.mails.length} mails so far)`));
      }, timeoutMs);
      const onMail = (): void => void check();
      const cleanup = (): void => {
        clearTimeout(timer);
        this.arrivals.off('mail', onMail);
      };
      this.arrivals.on('mail', onMail);
      check();
    });
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
