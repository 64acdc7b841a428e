// The development inbox: with SMTP_URL unset the service writes each e-mail to MAIL_DIR
// (transport.ts), and beside each .eml a .json of what a person needs from it, which
// GET /dev/mail/messages/ lists and the web client's /dev/mail page shows, links clickable.
// Only on a machine of one's own: the service must listen on a loopback address and
// PUBLIC_URL name one too, or anyone reaching it (through a reverse proxy, say) could read
// every verification and reset link.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.ts';

export interface DevMail {
  /** The file's name without its extension: when it was written, then the message id. */
  id: string;
  to: string;
  subject: string;
  sent_at: string;
  text: string;
  /** The http(s) links in the text, in order. */
  links: string[];
}

/** What transport.ts writes beside each .eml file. */
export type DevMailRecord = Omit<DevMail, 'id' | 'links'>;

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

export function devInboxEnabled(config: Config): boolean {
  return config.smtpUrl === undefined && isLoopback(config.host) && isLoopback(new URL(config.publicUrl).hostname);
}

export function linksIn(text: string): string[] {
  return text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
}

/** The newest `limit` e-mails in `dir`, newest first. */
export async function readDevInbox(dir: string, limit: number): Promise<DevMail[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  // Names start with the time the e-mail was written (ISO 8601): they sort by it.
  const newest = names.sort().reverse().slice(0, limit);
  const mails: DevMail[] = [];
  for (const name of newest) {
    const record = JSON.parse(await readFile(join(dir, name), 'utf8')) as DevMailRecord;
    mails.push({ id: name.slice(0, -'.json'.length), ...record, links: linksIn(record.text) });
  }
  return mails;
}
