// The development inbox: with SMTP_URL unset the service writes each e-mail to MAIL_DIR
// (transport.ts), and beside each .eml a .json of what a person needs from it, which
// GET /dev/mail/messages/ lists and the web client's /dev/mail page shows, links clickable.
// Only on a machine of one's own, or anyone reaching it (through a reverse proxy, say) could
// read every verification and reset link: DEV_INBOX=auto (the default) turns it on only for a
// run that is local in every respect; DEV_INBOX=on is the explicit opt-in otherwise. Either
// way it answers only requests whose Host is a loopback name (http/loopback.ts).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { isLoopbackName } from '../http/loopback.ts';

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

/**
 * DEV_INBOX=on: on (SMTP_URL unset, which the configuration checks). DEV_INBOX=auto: on only
 * for a zero-configuration run on this machine: e-mail to files, not production
 * (NODE_ENV), no TRUST_PROXY (no proxy in front), and the listener and PUBLIC_URL on loopback.
 */
export function devInboxEnabled(config: Config): boolean {
  if (config.smtpUrl !== undefined || config.devInbox === 'off') return false;
  if (config.devInbox === 'on') return true;
  return (
    !config.production && config.trustProxy === false && isLoopbackName(config.host) && isLoopbackName(new URL(config.publicUrl).hostname)
  );
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
