// Sends e-mail: over SMTP when SMTP_URL is set, else as .eml files under MAIL_DIR.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  send(message: MailMessage, messageId: string): Promise<void>;
  close(): void;
}

// nodemailer is loaded when the first e-mail goes out: a server that sends none never pays for it.
async function loadNodemailer() {
  return (await import('nodemailer')).default;
}

function smtpTransport(config: Config): MailTransport {
  let transporter: Promise<Transporter> | undefined;
  const connect = async () => (await loadNodemailer()).createTransport({
    url: config.smtpUrl!,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(message, messageId) {
      transporter ??= connect();
      await (await transporter).sendMail({ from: config.mailFrom, messageId, ...message });
    },
    close: () => {
      void transporter?.then((t) => t.close());
    },
  };
}

function fileTransport(config: Config, log: FastifyBaseLogger): MailTransport {
  let builder: Promise<Transporter> | undefined;
  return {
    async send(message, messageId) {
      builder ??= loadNodemailer().then((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
      const info = await (await builder).sendMail({ from: config.mailFrom, messageId, ...message });
      await mkdir(config.mailDir, { recursive: true });
      const safeId = messageId.replace(/[^A-Za-z0-9.-]/g, '_');
      const path = join(config.mailDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeId}.eml`);
      await writeFile(path, info.message as Buffer);
      log.info({ to: message.to, subject: message.subject, path }, 'e-mail written to file');
    },
    close: () => {
      void builder?.then((b) => b.close());
    },
  };
}

export function createMailTransport(config: Config, log: FastifyBaseLogger): MailTransport {
  return config.smtpUrl ? smtpTransport(config) : fileTransport(config, log);
}
