// A real SMTP server (smtp-server) that keeps what it receives, for tests of outgoing mail.
import { SMTPServer } from 'smtp-server';
import { WAIT_MS } from './wait.ts';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The raw message with quoted-printable soft breaks and escapes undone. */
  decoded: string;
  subject: string;
}

function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  #server: SMTPServer;
  #waiters: Array<() => void> = [];
  port = 0;
  /** When true, every message is refused with a temporary error. */
  failing = false;

  constructor() {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (this.failing) return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          const raw = Buffer.concat(chunks).toString('utf8');
          const decoded = decodeQuotedPrintable(raw);
          this.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            decoded,
            subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? '',
          });
          callback();
          for (const waiter of this.#waiters.splice(0)) waiter();
        });
      },
    });
  }

  async listen(port = 0): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.#server.server.address() as { port: number }).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Waits until a message matching `predicate` has arrived (or throws after `timeoutMs`). */
  async waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs = WAIT_MS): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for an e-mail');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The key= value in a message's link. */
  static keyIn(mail: ReceivedMail): string {
    return keyInText(mail.decoded, `e-mail "${mail.subject}"`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** The key= value in the link of an e-mail's (decoded) text; `what` names it in the error. */
export function keyInText(text: string, what: string): string {
  const match = /key=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error(`no key in ${what}`);
  return match[1]!;
}
