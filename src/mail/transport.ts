// Sends e-mail: over SMTP when SMTP_URL is set, else as .eml files under MAIL_DIR.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import type { DevMailRecord } from './dev-inbox.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The language it is written in, sent as `Content-Language` (absent in messages queued before it was kept). */
  language?: string;
  /** Keep no trace of the recipient once delivered (the last notice to a deleted account). */
  forgetRecipient?: boolean;
}

export interface MailTransport {
  send(message: MailMessage, messageId: string): Promise<void>;
  close(): void;
}

/**
 * A nodemailer transporter made when the first e-mail goes out: nodemailer is loaded only
 * then, so a server that sends none never pays for it.
 */
function lazyTransporter(options: object) {
  let transporter: Promise<Transporter> | undefined;
  return {
    get: () => (transporter ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options))),
    close: () => {
      void transporter?.then((t) => t.close());
    },
  };
}

/** What nodemailer is given for `message`: its language goes as a header (RFC 3282). */
function mailOptions(config: Config, message: MailMessage, messageId: string) {
  const { language, forgetRecipient: _, ...content } = message;
  return { from: config.mailFrom, messageId, ...content, ...(language ? { headers: { 'Content-Language': language } } : {}) };
}

function smtpTransport(config: Config): MailTransport {
  // A server that accepts the connection but then says nothing fails the attempt (the outbox
  // retries it later) instead of holding the worker.
  const transporter = lazyTransporter({
    url: config.smtpUrl!,
    connectionTimeout: config.smtpTimeoutMs,
    greetingTimeout: config.smtpTimeoutMs,
    socketTimeout: 3 * config.smtpTimeoutMs,
  });
  return {
    async send(message, messageId) {
      await (await transporter.get()).sendMail(mailOptions(config, message, messageId));
    },
    close: transporter.close,
  };
}

function fileTransport(config: Config, log: FastifyBaseLogger): MailTransport {
  const builder = lazyTransporter({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message, messageId) {
      const info = await (await builder.get()).sendMail(mailOptions(config, message, messageId));
      await mkdir(config.mailDir, { recursive: true });
      const safeId = messageId.replace(/[^A-Za-z0-9.-]/g, '_');
      const path = join(config.mailDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeId}.eml`);
      // Written whole under another name, then renamed: whoever watches the folder never reads half a file.
      await writeFile(`${path}.tmp`, info.message as Buffer);
      await rename(`${path}.tmp`, path);
      // What the development inbox shows (dev-inbox.ts), readable without a MIME parser.
      const record: DevMailRecord = { to: message.to, subject: message.subject, sent_at: new Date().toISOString(), text: message.text };
      const recordPath = path.replace(/\.eml$/, '.json');
      await writeFile(`${recordPath}.tmp`, JSON.stringify(record));
      await rename(`${recordPath}.tmp`, recordPath);
      // The link and its key, readable here (the file's body is quoted-printable): what a person
      // trying the service out copies. Only in this mode, meant for development.
      log.info({ to: message.to, subject: message.subject, path, ...linkIn(message.text) }, 'e-mail written to file');
    },
    close: builder.close,
  };
}

/** The key link of an e-mail (verification, reset) and its key, if it has one; never throws. */
export function linkIn(text: string): { link?: string; key?: string } {
  const link = /https?:\/\/\S*[?&]key=\S+/.exec(text)?.[0];
  if (!link) return {};
  try {
    const key = new URL(link).searchParams.get('key');
    return key ? { link, key } : {};
  } catch {
    return {};
  }
}

export function createMailTransport(config: Config, log: FastifyBaseLogger): MailTransport {
  return config.smtpUrl ? smtpTransport(config) : fileTransport(config, log);
}
