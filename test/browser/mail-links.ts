// The link in an e-mail, exactly as sent: read from the message's text/plain part, its
// transfer encoding undone, so the browser opens what a person would click.
import type { ReceivedMail, SmtpSink } from '../helpers/smtp-sink.ts';
import { WAIT_MS } from './browser.ts';

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** Splits an entity (a whole message or one part) into its headers and its body. */
function entity(raw: string): { headers: string; body: string } {
  const split = raw.search(/\r?\n\r?\n/);
  return split < 0 ? { headers: raw, body: '' } : { headers: raw.slice(0, split), body: raw.slice(split).replace(/^\r?\n\r?\n/, '') };
}

/**
 * The text/plain part of a raw message (a multipart one or not), decoded. A multipart body is
 * split on its declared boundary only: a line of an encoded body may begin with "--" too (a
 * key's base64url does), and taking it for a boundary cuts the part there.
 */
export function plainText(raw: string): string {
  const found = findPlainText(raw);
  if (found === undefined) throw new Error(`no text/plain part in the e-mail:\n${raw}`);
  return found;
}

function findPlainText(raw: string): string | undefined {
  const { headers, body } = entity(raw);
  const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
  const type = /^content-type:\s*([^;\s]+)(.*)$/im.exec(unfolded);
  const mediaType = type?.[1]?.toLowerCase() ?? 'text/plain';
  if (mediaType.startsWith('multipart/')) {
    const parameter = /boundary=(?:"([^"]+)"|([^";\s]+))/i.exec(type?.[2] ?? '');
    const boundary = parameter?.[1] ?? parameter?.[2];
    if (!boundary) throw new Error(`a multipart part without a boundary:\n${headers}`);
    const delimiter = new RegExp(`^--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:--)?[ \t]*\r?$`, 'm');
    const parts = body.split(delimiter);
    // The preamble before the first delimiter and the epilogue after the last are no parts.
    for (const part of parts.slice(1, -1)) {
      const text = findPlainText(part.replace(/^\r?\n/, '').replace(/\r?\n$/, ''));
      if (text !== undefined) return text;
    }
    return undefined;
  }
  if (mediaType !== 'text/plain') return undefined;
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(unfolded)?.[1]?.toLowerCase() ?? '7bit';
  return decodeBody(body.trim(), encoding);
}

/** The one link with a key in an e-mail's text. */
export function linkIn(mail: ReceivedMail): string {
  const links = plainText(mail.raw).match(/https?:\/\/\S+/g) ?? [];
  const withKey = links.filter((link) => link.includes('key='));
  if (withKey.length !== 1) throw new Error(`expected one link with a key in "${mail.subject}", found: ${JSON.stringify(links)}`);
  return withKey[0]!;
}

/** Waits for the next e-mail to `to` whose subject matches, arriving after the `seen` first ones. */
export async function nextMail(sink: SmtpSink, to: string, subject: RegExp, seen: number): Promise<ReceivedMail> {
  const mail = await sink
    .waitFor((m) => sink.messages.indexOf(m) >= seen && m.to.includes(to) && subject.test(m.subject), WAIT_MS)
    .catch(() => {
      const got = sink.messages.map((m) => `  ${m.to.join(',')}: ${m.subject}`).join('\n');
      throw new Error(`no e-mail to ${to} with a subject like ${subject} arrived; the sink holds:\n${got || '  nothing'}`);
    });
  return mail;
}

/** The one link in an e-mail's text to the page at `page` (an absolute address, no key). */
export function linkTo(mail: ReceivedMail, page: string): string {
  // A sentence may end right after a link: its full stop is not part of it.
  const links = (plainText(mail.raw).match(/https?:\/\/\S+/g) ?? []).map((link) => link.replace(/[.,;:!?)>]+$/, ''));
  const found = [...new Set(links.filter((link) => link === page || link.startsWith(`${page}?`)))];
  if (found.length !== 1) throw new Error(`expected one link to ${page} in "${mail.subject}", found: ${JSON.stringify(links)}`);
  return found[0]!;
}
