import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig, parseDuration, parseSize } from '../src/config.ts';
import { tempDir } from './helpers/temp-dir.ts';

describe('configuration', () => {
  test('defaults make a first run work', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.publicUrl, 'http://localhost:8000');
    assert.equal(config.databaseUrl, 'sqlite:data/profile-service.db');
    assert.equal(config.smtpUrl, undefined);
    assert.equal(config.emailVerificationUrl, 'http://localhost:8000/verify-email?key={key}');
    assert.equal(config.passwordResetUrl, 'http://localhost:8000/reset-password?key={key}');
    assert.equal(config.tokenIdleTtlMs, 30 * 86_400_000);
    assert.equal(config.emailVerificationTtlMs, 86_400_000);
    assert.equal(config.passwordResetTtlMs, 3_600_000);
    assert.equal(config.mediaMaxBytes, 10 * 1024 * 1024);
    assert.equal(config.mediaUrlTtlMs, 3_600_000);
    assert.equal(config.rateLimits.enabled, true);
    assert.deepEqual(config.rateLimits.loginFailuresPerAccountIp, { max: 5, windowMs: 300_000 });
    assert.equal(config.messaging, undefined);
    assert.equal(config.mailchimp, undefined);
  });

  test('passkeys: the RP id and origins default from PUBLIC_URL; origins must sit at or below the RP id', () => {
    assert.deepEqual(loadConfig({ PUBLIC_URL: 'https://app.example.com/' }).webauthn, {
      rpId: 'app.example.com',
      rpName: 'Profile Service',
      origins: ['https://app.example.com'],
    });
    const apk = 'android:apk-key-hash:Zm9vYmFyLWJhei1xdXV4LXF1dXV4LWZvb2Jhci1iYXo';
    const wide = loadConfig({
      PUBLIC_URL: 'https://app.example.com',
      WEBAUTHN_RP_ID: 'Example.com',
      WEBAUTHN_ORIGINS: `https://example.com, https://app.example.com/,${apk}`,
      WEBAUTHN_RP_NAME: 'Profiles',
    }).webauthn;
    assert.deepEqual(wide, { rpId: 'example.com', rpName: 'Profiles', origins: ['https://example.com', 'https://app.example.com', apk] });
    for (const env of [
      { WEBAUTHN_RP_ID: 'https://example.com' },
      { WEBAUTHN_RP_ID: 'example.com:443' },
      { WEBAUTHN_ORIGINS: 'https://evil.example' },
      { WEBAUTHN_ORIGINS: 'https://example.com/path' },
      { WEBAUTHN_ORIGINS: 'android:apk-key-hash:' },
      { WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGINS: 'https://notexample.com' },
    ]) {
      const variable = Object.keys(env).at(-1)!;
      assert.throws(
        () => loadConfig({ PUBLIC_URL: 'https://app.example.com', ...env }),
        (error: unknown) => error instanceof ConfigError && error.message.includes(variable),
        JSON.stringify(env),
      );
    }
  });

  test('sign-in providers: OIDC_PROVIDERS with each one’s issuer, client ids and secret; Apple’s key; clear errors', () => {
    assert.deepEqual(loadConfig({}).oidcProviders, []);
    const keyFile = join(tempDir('apple-key-'), 'AuthKey.p8');
    writeFileSync(keyFile, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const good = {
      OIDC_PROVIDERS: 'Google, apple,corp',
      OIDC_GOOGLE_ISSUER: 'https://accounts.google.com/',
      OIDC_GOOGLE_CLIENT_ID: 'web.apps.googleusercontent.com, android.apps.googleusercontent.com',
      OIDC_GOOGLE_CLIENT_SECRET: 'secret',
      OIDC_APPLE_ISSUER: 'https://appleid.apple.com',
      OIDC_APPLE_CLIENT_ID: 'com.example.web,com.example.app',
      OIDC_APPLE_TEAM_ID: 'TEAM',
      OIDC_APPLE_KEY_ID: 'KEY',
      OIDC_APPLE_PRIVATE_KEY_FILE: keyFile,
      OIDC_CORP_ISSUER: 'http://127.0.0.1:9000/realms/corp',
      OIDC_CORP_CLIENT_ID: 'profiles',
      OIDC_CORP_LABEL: 'Corp SSO',
    };
    assert.deepEqual(loadConfig(good).oidcProviders, [
      {
        name: 'google',
        label: 'Google',
        issuer: 'https://accounts.google.com',
        clientIds: ['web.apps.googleusercontent.com', 'android.apps.googleusercontent.com'],
        clientSecret: 'secret',
        apple: undefined,
      },
      {
        name: 'apple',
        label: 'Apple',
        issuer: 'https://appleid.apple.com',
        clientIds: ['com.example.web', 'com.example.app'],
        clientSecret: undefined,
        apple: { teamId: 'TEAM', keyId: 'KEY', privateKeyFile: keyFile },
      },
      {
        name: 'corp',
        label: 'Corp SSO',
        issuer: 'http://127.0.0.1:9000/realms/corp',
        clientIds: ['profiles'],
        clientSecret: undefined,
        apple: undefined,
      },
    ]);
    for (const [env, says] of [
      [{ OIDC_PROVIDERS: 'go-ogle' }, 'OIDC_PROVIDERS'],
      [{ OIDC_PROVIDERS: 'google,google' }, 'twice'],
      [{ OIDC_GOOGLE_ISSUER: undefined }, 'OIDC_GOOGLE_ISSUER'],
      [{ OIDC_GOOGLE_ISSUER: 'http://accounts.google.com' }, 'loopback'],
      [{ OIDC_GOOGLE_ISSUER: 'ftp://accounts.google.com' }, 'OIDC_GOOGLE_ISSUER'],
      [{ OIDC_GOOGLE_CLIENT_ID: ' , ' }, 'OIDC_GOOGLE_CLIENT_ID'],
      [{ OIDC_APPLE_KEY_ID: undefined }, 'OIDC_APPLE_KEY_ID'],
      [{ OIDC_APPLE_PRIVATE_KEY_FILE: '/nowhere/AuthKey.p8' }, 'OIDC_APPLE_PRIVATE_KEY_FILE'],
      [{ OIDC_APPLE_CLIENT_SECRET: 'x' }, 'OIDC_APPLE_CLIENT_SECRET'],
    ] as const) {
      assert.throws(
        () => loadConfig({ ...good, ...env }),
        (error: unknown) => error instanceof ConfigError && error.message.includes(says),
        JSON.stringify(env),
      );
    }
  });

  test('PUBLIC_URL follows PORT, loses a trailing slash, and feeds the link templates', () => {
    assert.equal(loadConfig({ PORT: '9000' }).publicUrl, 'http://localhost:9000');
    const config = loadConfig({ PUBLIC_URL: 'https://api.example.com/' });
    assert.equal(config.publicUrl, 'https://api.example.com');
    assert.equal(config.emailVerificationUrl, 'https://api.example.com/verify-email?key={key}');
  });

  test('METRICS_PORT turns the metrics listener on (METRICS_HOST: loopback unless told); LOG_FORMAT is json or pretty', () => {
    assert.equal(loadConfig({}).metrics, undefined);
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464' }).metrics, { port: 9464, host: '127.0.0.1' });
    assert.deepEqual(loadConfig({ METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' }).metrics, { port: 0, host: '0.0.0.0' });
    assert.equal(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat, 'pretty');
    assert.equal(loadConfig({ LOG_FORMAT: 'JSON' }).logFormat, 'json');
    // Unset: pretty on a terminal, JSON lines otherwise (as here: the test runner's output is a pipe).
    assert.equal(loadConfig({}).logFormat, process.stdout.isTTY ? 'pretty' : 'json');
  });

  test('durations and sizes take units', () => {
    assert.equal(parseDuration('X', '90'), 90_000);
    assert.equal(parseDuration('X', '30d'), 30 * 86_400_000);
    assert.equal(parseDuration('X', '250ms'), 250);
    assert.equal(parseSize('X', '1KiB'), 1024);
    assert.equal(parseSize('X', '5MB'), 5_000_000);
    assert.equal(loadConfig({ TOKEN_IDLE_TTL: '0' }).tokenIdleTtlMs, 0);
  });

  test('Mailchimp: the API base comes from the key, MAILCHIMP_API_URL overrides it', () => {
    assert.equal(
      loadConfig({ MAILCHIMP_API_KEY: 'abc-us6', MAILCHIMP_LIST_ID: 'l1' }).mailchimp?.apiUrl,
      'https://us6.api.mailchimp.com/3.0',
    );
    assert.equal(
      loadConfig({ MAILCHIMP_API_KEY: 'abc-us6', MAILCHIMP_LIST_ID: 'l1', MAILCHIMP_API_URL: 'http://127.0.0.1:9/3.0/' }).mailchimp?.apiUrl,
      'http://127.0.0.1:9/3.0',
    );
  });

  test('MEDIA_STORAGE: fs:<directory>, or s3://<bucket>[/<prefix>] with the S3_* and AWS_* settings', () => {
    assert.deepEqual(loadConfig({}).mediaStorage, { kind: 'fs', directory: 'data/media' });
    assert.deepEqual(loadConfig({ MEDIA_STORAGE: 's3://media-bucket' }).mediaStorage, {
      kind: 's3',
      bucket: 'media-bucket',
      prefix: '',
      endpoint: undefined,
      forcePathStyle: false,
      region: 'us-east-1',
      credentials: undefined,
    });
    assert.deepEqual(
      loadConfig({
        MEDIA_STORAGE: 's3://my.bucket/tenants/a/',
        S3_ENDPOINT: 'http://minio.internal:9000/',
        S3_FORCE_PATH_STYLE: 'TRUE',
        AWS_REGION: 'eu-west-1',
        AWS_ACCESS_KEY_ID: 'key',
        AWS_SECRET_ACCESS_KEY: 'secret',
      }).mediaStorage,
      {
        kind: 's3',
        bucket: 'my.bucket',
        prefix: 'tenants/a/',
        endpoint: 'http://minio.internal:9000',
        forcePathStyle: true,
        region: 'eu-west-1',
        credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      },
    );
    const withToken = loadConfig({
      MEDIA_STORAGE: 's3://b12',
      AWS_DEFAULT_REGION: 'us-west-2',
      AWS_ACCESS_KEY_ID: 'k',
      AWS_SECRET_ACCESS_KEY: 's',
      AWS_SESSION_TOKEN: 't',
    });
    assert.deepEqual(withToken.mediaStorage.kind === 's3' && [withToken.mediaStorage.region, withToken.mediaStorage.credentials], [
      'us-west-2',
      { accessKeyId: 'k', secretAccessKey: 's', sessionToken: 't' },
    ]);
  });

  test('MFA_ENCRYPTION_KEY: 32-byte keys in base64 or hex, comma-separated, the first one first', () => {
    assert.deepEqual(loadConfig({}).mfaEncryptionKeys, []);
    const base64 = Buffer.alloc(32, 7).toString('base64');
    const hex = Buffer.alloc(32, 9).toString('hex');
    assert.deepEqual(loadConfig({ MFA_ENCRYPTION_KEY: `${base64}, ${hex}` }).mfaEncryptionKeys, [Buffer.alloc(32, 7), Buffer.alloc(32, 9)]);
  });

  test('CORS_ORIGINS: origins without a path, comma-separated, or *', () => {
    assert.deepEqual(loadConfig({}).corsOrigins, []);
    assert.deepEqual(loadConfig({ CORS_ORIGINS: 'https://app.example.com/, http://localhost:5173' }).corsOrigins, [
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    assert.deepEqual(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins, ['*']);
  });

  test('BACKUP_SCHEDULE: a cron expression, with BACKUP_LOCATION (a folder or s3://), BACKUP_KEY and BACKUP_KEEP', () => {
    assert.equal(loadConfig({}).backup, undefined);
    assert.deepEqual(loadConfig({}).backupKeys, []);
    const BACKUP_KEY = Buffer.alloc(32, 7).toString('base64');
    assert.deepEqual(loadConfig({ BACKUP_KEY: `${BACKUP_KEY},${'ab'.repeat(32)}` }).backupKeys, [
      Buffer.alloc(32, 7),
      Buffer.alloc(32, 0xab),
    ]);
    assert.deepEqual(loadConfig({ BACKUP_SCHEDULE: '0 3 * * *', BACKUP_LOCATION: '/var/backups/profile-service', BACKUP_KEY }).backup, {
      schedule: '0 3 * * *',
      location: { kind: 'folder', directory: '/var/backups/profile-service' },
      keep: undefined,
    });
    const onS3 = loadConfig({
      BACKUP_SCHEDULE: '30 2 * * 0',
      BACKUP_LOCATION: 's3://backups/profile-service',
      BACKUP_KEEP: '7',
      BACKUP_KEY,
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'true',
    }).backup;
    assert.equal(onS3?.keep, 7);
    // PostgreSQL is backed up on a schedule too (pg_dump).
    assert.equal(
      loadConfig({ DATABASE_URL: 'postgres://db/x', BACKUP_SCHEDULE: '0 3 * * *', BACKUP_LOCATION: '/b', BACKUP_KEY }).backup?.schedule,
      '0 3 * * *',
    );
    // The S3 settings are checked where an s3:// location uses them, not otherwise.
    assert.equal(
      loadConfig({ AWS_ACCESS_KEY_ID: 'k', BACKUP_SCHEDULE: '0 3 * * *', BACKUP_LOCATION: '/b', BACKUP_KEY }).backup?.location.kind,
      'folder',
    );
    assert.throws(
      () => loadConfig({ AWS_ACCESS_KEY_ID: 'k', BACKUP_SCHEDULE: '0 3 * * *', BACKUP_LOCATION: 's3://backups', BACKUP_KEY }),
      /AWS_SECRET_ACCESS_KEY/,
    );
    assert.deepEqual(onS3?.location, {
      kind: 's3',
      bucket: 'backups',
      prefix: 'profile-service/',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: undefined,
    });
  });

  const bad: Array<[Record<string, string>, string]> = [
    [{ BACKUP_SCHEDULE: 'every night', BACKUP_LOCATION: '/backups' }, 'BACKUP_SCHEDULE'],
    [{ BACKUP_SCHEDULE: '61 3 * * *', BACKUP_LOCATION: '/backups' }, 'BACKUP_SCHEDULE'],
    [{ BACKUP_SCHEDULE: '0 3 * * *' }, 'BACKUP_LOCATION'],
    [{ BACKUP_SCHEDULE: '0 3 * * *', BACKUP_LOCATION: 'gs://bucket/x' }, 'BACKUP_LOCATION'],
    [{ BACKUP_SCHEDULE: '0 3 * * *', BACKUP_LOCATION: 's3://Bad_Bucket' }, 'BACKUP_LOCATION'],
    [{ BACKUP_SCHEDULE: '0 3 * * *', BACKUP_LOCATION: '/backups', BACKUP_KEEP: '0' }, 'BACKUP_KEEP'],
    [{ BACKUP_KEEP: '3' }, 'BACKUP_SCHEDULE'],
    [{ BACKUP_SCHEDULE: '0 3 * * *', BACKUP_LOCATION: '/backups' }, 'backups need BACKUP_KEY'],
    [{ BACKUP_KEY: Buffer.alloc(16).toString('base64') }, 'BACKUP_KEY must be 32-byte keys'],
    [{ CORS_ORIGINS: 'app.example.com' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://app.example.com/path' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'ftp://files.example.com' }, 'CORS_ORIGINS'],
    [{ MFA_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') }, 'MFA_ENCRYPTION_KEY'],
    [{ MFA_ENCRYPTION_KEY: 'not a key at all, not base64!!' }, 'MFA_ENCRYPTION_KEY'],
    [{ MFA_ENCRYPTION_KEY: `${Buffer.alloc(32).toString('base64')},short` }, 'MFA_ENCRYPTION_KEY'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ EMAIL_VERIFICATION_URL: 'https://x/verify' }, 'EMAIL_VERIFICATION_URL'],
    [{ PASSWORD_RESET_URL: 'reset?key={key}' }, 'PASSWORD_RESET_URL'],
    [{ MEDIA_STORAGE: 's3' }, 'MEDIA_STORAGE'],
    [{ MEDIA_STORAGE: 's3://' }, 'MEDIA_STORAGE'],
    [{ MEDIA_STORAGE: 's3://Upper_Case' }, 'MEDIA_STORAGE'],
    [{ MEDIA_STORAGE: 's3://bucket/../escape' }, 'MEDIA_STORAGE'],
    [{ MEDIA_STORAGE: 's3://bucket/a b' }, 'MEDIA_STORAGE'],
    [{ MEDIA_STORAGE: 'gs://bucket' }, 'MEDIA_STORAGE'],
    [{ MEDIA_STORAGE: 's3://bucket', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
    [{ MEDIA_STORAGE: 's3://bucket', S3_ENDPOINT: 'ftp://minio' }, 'S3_ENDPOINT'],
    [{ MEDIA_STORAGE: 's3://bucket', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE'],
    [{ MEDIA_STORAGE: 's3://bucket', AWS_REGION: 'EU West' }, 'AWS_REGION'],
    [{ MEDIA_STORAGE: 's3://bucket', AWS_ACCESS_KEY_ID: 'k' }, 'AWS_SECRET_ACCESS_KEY'],
    [{ MEDIA_STORAGE: 's3://bucket', AWS_SECRET_ACCESS_KEY: 's' }, 'AWS_ACCESS_KEY_ID'],
    [{ MEDIA_MAX_BYTES: 'lots' }, 'MEDIA_MAX_BYTES'],
    [{ MEDIA_URL_TTL: '1 fortnight' }, 'MEDIA_URL_TTL'],
    [{ TOKEN_IDLE_TTL: '-1' }, 'TOKEN_IDLE_TTL'],
    [{ RATE_LIMITS: 'maybe' }, 'RATE_LIMITS'],
    [{ RATE_LIMIT_LOGIN_IP: '10 per minute' }, 'RATE_LIMIT_LOGIN_IP'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
    [{ METRICS_PORT: 'nine' }, 'METRICS_PORT'],
    [{ PORT: '9000', METRICS_PORT: '9000' }, 'METRICS_PORT'],
    [{ MESSAGING_PROVIDER_ID: 'p' }, 'MESSAGING_KEY_ID'],
    [{ MAILCHIMP_API_KEY: 'abc-us6' }, 'MAILCHIMP_LIST_ID'],
    [{ MAILCHIMP_API_KEY: 'nodatacentre', MAILCHIMP_LIST_ID: 'l' }, 'MAILCHIMP_API_KEY'],
    [{ QUOTA_ITEMS_PER_TOPIC: '0' }, 'QUOTA_ITEMS_PER_TOPIC'],
    [{ SQLITE_SYNCHRONOUS: 'OFF' }, 'SQLITE_SYNCHRONOUS'],
    [{ CHANGES_RETENTION: '0' }, 'CHANGES_RETENTION'],
    [{ EVENT_STREAMS_PER_ACCOUNT: '0' }, 'EVENT_STREAMS_PER_ACCOUNT'],
    [{ EVENT_STREAMS_PER_IP: '0' }, 'EVENT_STREAMS_PER_IP'],
    [{ EVENT_HEARTBEAT: '31s' }, 'EVENT_HEARTBEAT'],
  ];
  for (const [env, variable] of bad) {
    test(`a bad ${variable} is refused with a message naming it`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && error.message.includes(variable),
      );
    });
  }

  test('every bad value is reported at once, not only the first', () => {
    const env = {
      PORT: 'eighty',
      DATABASE_URL: 'mysql://db',
      LOG_LEVEL: 'loud',
      QUOTA_PROFILES_PER_USER: '0',
      RATE_LIMIT_REGISTER: 'many',
      CORS_ORIGINS: 'not an origin',
      EVENT_HEARTBEAT: '31s',
    };
    let caught: unknown;
    try {
      loadConfig(env);
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof ConfigError, 'a ConfigError');
    assert.equal(caught.problems.length, Object.keys(env).length, caught.message);
    for (const variable of Object.keys(env)) {
      assert.ok(
        caught.problems.some((problem) => problem.includes(variable)),
        `${variable} named in: ${caught.message}`,
      );
      assert.ok(caught.message.includes(variable), `${variable} in the message`);
    }
  });

  test('the service refuses to start on a bad value, naming the variable, exit status 2', async () => {
    // Asynchronous, so the test runner's own output keeps flowing while the child runs.
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'src/main.ts'],
        {
          env: { ...process.env, PORT: 'eighty', LOG_LEVEL: 'loud' },
          encoding: 'utf8',
          timeout: 20_000,
        },
        (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /PORT/);
    assert.match(result.stderr, /LOG_LEVEL/, 'every bad variable, not only the first');
    assert.doesNotMatch(result.stderr, /at .*\.ts:\d+/, 'no stack trace');
  });
});
