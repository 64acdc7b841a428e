// Without SMTP_URL (the `npm start` default) every e-mail is written as an .eml file under
// MAIL_DIR, with its link built from PUBLIC_URL.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { linkIn } from '../../src/mail/transport.ts';
import { mailFiles } from '../helpers/mail-files.ts';
import { keyInText } from '../helpers/smtp-sink.ts';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

describe('e-mail to files', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('a registration writes its verification e-mail, with a key link from PUBLIC_URL, once', async () => {
    const response = await server.request('POST', '/auth/register/', {
      body: { email: 'file.mail@example.com', password: 'a long and unusual passphrase' },
    });
    assert.equal(response.status, 201, response.text);
    const [decoded] = await mailFiles(join(server.dataDir, 'mail'), 1);
    assert.match(decoded!, /^To: file\.mail@example\.com$/m);
    assert.match(decoded!, /^Subject: Confirm your e-mail address$/m);
    assert.ok(decoded!.includes(`${PUBLIC_URL}/verify-email?key=`), 'the link is built from PUBLIC_URL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await mailFiles(join(server.dataDir, 'mail'), 1)).length, 1, 'written once');
  });
});

describe('e-mail to files, as logged', () => {
  const lines: Array<Record<string, unknown>> = [];
  let server: TestServer;
  before(async () => {
    // A logger of the test's own, so that the log lines can be read.
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    server = await startTestServer({}, { log: log as FastifyBaseLogger });
  });
  after(() => server.close());

  test("each file's log line names it and carries the link and its key, as in the e-mail", async () => {
    const email = 'logged.mail@example.com';
    await server.request('POST', '/auth/register/', { body: { email, password: 'a long and unusual passphrase' } });
    const [decoded] = await mailFiles(join(server.dataDir, 'mail'), 1);
    const key = keyInText(decoded!, 'the verification e-mail');
    // The line is logged once the development inbox's record is written too, after the file.
    const loggedLine = () => lines.find((line) => line.msg === 'e-mail written to file' && line.to === email);
    await waitFor(() => loggedLine() !== undefined, 'the e-mail to be logged');
    const logged = loggedLine()!;
    assert.equal(logged.key, key);
    assert.equal(logged.link, `${PUBLIC_URL}/verify-email?key=${key}`);
    assert.match(String(logged.path), /\.eml$/);
  });

  test('a notice without a link logs no key', () => {
    assert.deepEqual(linkIn('Your password was changed.\n\nIf you did not do this, reset it now.'), {});
    assert.deepEqual(linkIn('Open https://x.test/verify?key=abc%2Fdef&x=1 now'), {
      link: 'https://x.test/verify?key=abc%2Fdef&x=1',
      key: 'abc/def',
    });
  });
});
