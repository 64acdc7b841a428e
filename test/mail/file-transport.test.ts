// Without SMTP_URL (the `npm start` default) every e-mail is written as an .eml file under
// MAIL_DIR, with its link built from PUBLIC_URL.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { mailFiles } from '../helpers/mail-files.ts';
import { PUBLIC_URL, startTestServer, type TestServer } from '../helpers/server.ts';

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
