// The link a browser test takes from an e-mail is the whole link nodemailer wrote, also when a
// quoted-printable line of the text part begins with "--", as a key's base64url can make one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import nodemailer from 'nodemailer';
import { linkIn, plainText } from './mail-links.ts';

/** The raw message nodemailer writes for `message`, as an SMTP server receives it. */
async function composed(message: { subject: string; text?: string; html?: string }): Promise<string> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await transport.sendMail({
    from: 'service@example.test',
    to: 'ann@example.test',
    textEncoding: 'quoted-printable',
    ...message,
  });
  return (info.message as Buffer).toString('utf8');
}

test('a key whose encoded line begins with "--" is read whole', async () => {
  const key = `Ab3${'-'.repeat(36)}xY9z`;
  const link = `https://example.test/verify-email?key=${key}`;
  const raw = await composed({
    subject: 'Verify',
    text: `Hello,\n\nopen ${link} to verify.\n`,
    html: `<p>Open <a href="${link}">this link</a>.</p>`,
  });
  const boundary = /boundary="?([^";\r\n]+)"?/.exec(raw)?.[1];
  const lines = raw.split('\r\n');
  assert.ok(
    lines.some((line) => line.startsWith('--') && !line.startsWith(`--${boundary}`)),
    'the message holds an encoded line that begins with "--" (else this test checks nothing)',
  );
  assert.equal(linkIn({ from: 'service@example.test', to: ['ann@example.test'], raw, decoded: raw, subject: 'Verify' }), link);
});

test('the text part of a message that is not multipart', async () => {
  const raw = await composed({ subject: 'Code', text: 'Your code: 123456. Grüße.' });
  assert.equal(plainText(raw), 'Your code: 123456. Grüße.');
});

test('a message without a text part says so', async () => {
  const raw = await composed({ subject: 'Only HTML', html: '<p>Hi</p>' });
  assert.throws(() => plainText(raw), /no text\/plain part/);
});
