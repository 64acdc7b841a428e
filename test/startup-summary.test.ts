// What the service says when it starts: where the API, its documentation, the database, the
// mail and the media are — and never a password.
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { startupMessage, startupSummary } from '../src/startup-summary.ts';

describe('start-up summary', () => {
  test('the defaults: SQLite file, mail folder, media folder, docs', () => {
    const { web, ...summary } = startupSummary(loadConfig({}));
    // Built or not, the line says where the web client's files are (or should be).
    assert.ok(web.includes(resolve('web/dist')), web);
    assert.deepEqual(summary, {
      api: 'http://localhost:8000',
      docs: 'http://localhost:8000/docs',
      database: `SQLite file ${resolve('data/profile-service.db')}`,
      mail: `written as .eml files to ${resolve('data/mail')} (each one's link and key are logged); read them at http://localhost:8000/dev/mail`,
      media: `files under ${resolve('data/media')}`,
    });
  });

  test('PostgreSQL, SMTP, S3 and metrics, passwords hidden', () => {
    const summary = startupSummary(
      loadConfig({
        DATABASE_URL: 'postgres://app:db-secret@db.example:5432/profile',
        SMTP_URL: 'smtp://mailer:smtp-secret@mail.example:587',
        MEDIA_STORAGE: 's3://media/prod',
        S3_ENDPOINT: 'https://s3.example',
        PUBLIC_URL: 'https://api.example',
      }),
      'http://127.0.0.1:9464',
    );
    assert.equal(summary.database, 'PostgreSQL postgres://app:***@db.example:5432/profile');
    assert.equal(summary.mail, 'SMTP smtp://mailer:***@mail.example:587');
    assert.match(summary.media, /^S3 bucket media\/prod\/? at https:\/\/s3\.example$/);
    assert.equal(summary.metrics, 'http://127.0.0.1:9464/metrics');
    assert.equal(summary.docs, 'https://api.example/docs');
    assert.ok(!JSON.stringify(summary).includes('secret'));
  });

  test('the line names PUBLIC_URL first, where passkeys work, and the listening address last', () => {
    const line = startupMessage(loadConfig({}), 'http://127.0.0.1:8000');
    assert.equal(line.match(/http:\/\/[^\s/)]+/)?.[0], 'http://localhost:8000', line);
    assert.ok(line.endsWith('(listening on http://127.0.0.1:8000)'), line);
  });
});
