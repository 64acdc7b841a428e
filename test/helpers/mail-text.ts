// What a person reads of a received e-mail: its subject and its text and HTML parts, decoded
// (RFC 2047 encoded words, quoted-printable and base64 bodies, UTF-8), for tests of the e-mails'
// wording in other languages than English.
export interface MailText {
  subject: string;
  text: string;
  html: string;
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(quotedPrintableBytes(data.replace(/_/g, ' '))).toString('utf8'),
    );
}

function quotedPrintableBytes(text: string): number[] {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(source.slice(i + 1, i + 3))) {
      bytes.push(parseInt(source.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return bytes;
}

/** Headers (unfolded, lower-case names) and body of one MIME entity. */
function entity(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodedBody(part: { headers: Map<string, string>; body: string }): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return Buffer.from(quotedPrintableBytes(part.body)).toString('utf8');
  return part.body;
}

export function mailText(raw: string): MailText {
  const message = entity(raw);
  const result: MailText = { subject: decodeWords(message.headers.get('subject') ?? ''), text: '', html: '' };
  const visit = (part: { headers: Map<string, string>; body: string }) => {
    const type = part.headers.get('content-type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (boundary) {
      for (const chunk of part.body.split(`--${boundary}`).slice(1)) {
        if (chunk.startsWith('--')) break;
        visit(entity(chunk.replace(/^\r?\n/, '')));
      }
    } else if (type.startsWith('text/html')) {
      result.html += decodedBody(part);
    } else if (type.startsWith('text/plain')) {
      result.text += decodedBody(part);
    }
  };
  visit(message);
  return result;
}
