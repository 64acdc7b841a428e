// docs/web-client.md: the request examples of the OpenAPI document work when sent as they are from
// /docs ("Try it out"). Every example of every operation is sent to the real server, in the
// order of one person's story (register, verify, log in, build the data, MFA,
// change the password, delete an account), and must answer 2xx. Filled in are only what no
// document can know: the path ids of the objects made on the way, and the one-time secrets a
// person copies from elsewhere (the e-mailed key, a login's mfa_token, the authenticator's code).
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { grantOperator } from '../../src/admin/admin-service.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import { EXAMPLE_ADDED_EMAIL } from '../../src/accounts/emails/email-schemas.ts';
import { EXAMPLE_EMAIL, EXAMPLE_PASSWORD } from '../../src/http/openapi-document.ts';
import {
  RESET_SUBJECT,
  VERIFY_SUBJECT,
  startMailedServer,
  verificationKey,
  waitForMail,
  type MailedServer,
} from '../accounts/account-flows.ts';
import { EXAMPLE_RESET_EMAIL } from '../../src/accounts/passwords/password-schemas.ts';
import { freshCode } from '../accounts/mfa-flows.ts';
import { addPasskey, signInWithPasskey } from '../admin/admin-flows.ts';
import { listOperations, type OpenApiDocument } from '../fuzz/openapi-walker.ts';
import { CookieJar } from '../helpers/cookie-jar.ts';
import { mediaOf, verifiedAccount } from '../helpers/factories.ts';
import { SmtpSink } from '../helpers/smtp-sink.ts';
import { signInAtProvider, startTestProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { SoftwareAuthenticator } from '../helpers/software-authenticator.ts';
import { PUBLIC_URL } from '../helpers/server.ts';
import type { TestServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

type Json = Record<string, any>;

/**
 * The only body fields a step may fill in: secrets a person copies from an e-mail, a login
 * answer or an app, a passkey authenticator's one-time answer, an app's ID token (each works
 * once) and a provider's signed event.
 */
const SECRET_FIELDS = ['key', 'email_code', 'mfa_token', 'code', 'response', 'id_token', 'payload'];

/** How one example is sent: by whom, to which object, with which one-time secrets. */
interface Sending {
  token?: string;
  /** The path's `{id}`: an object's id (linking an identity: the provider's name). */
  id?: number | string;
  /** Other path parameters, such as an emergency link's `{token}`. */
  params?: Record<string, string>;
  secrets?: Record<string, unknown>;
  /** Headers a browser would send too, such as the cookie of the browser a provider flow belongs to. */
  headers?: Record<string, string>;
}

interface Step {
  operationId: string;
  /** The named example (media type `examples`); none for the single `example`. */
  example?: string;
  send(): Sending | Promise<Sending>;
  /** Keeps what later steps need from the answer. */
  keep?(body: Json): void;
}

/** What the story has made so far. */
const made: Record<string, any> = {};

/** The 6-digit code an e-mail carries beside its link. */
function emailCodeIn(mail: { decoded: string }): string {
  const code = /: (\d{6})\. The code works once/.exec(mail.decoded)?.[1];
  assert.ok(code, 'no code in the e-mail');
  return code;
}

function mfaCode(): string {
  return freshCode(mailed.server, made.totpSecret);
}

let mailed: MailedServer;
/** The passkey authenticator of the person in the story. */
const authenticator = new SoftwareAuthenticator({ origin: PUBLIC_URL, rpId: new URL(PUBLIC_URL).hostname });

/** An account of its own for an example that cannot run twice, with the examples' password. */
async function accountWithExamplePassword(email: string): Promise<{ id: number; token: string }> {
  const server = mailed.server;
  return verifiedAccount(server.server.ctx.db.kysely, {
    email,
    passwordHash: await hashPassword(EXAMPLE_PASSWORD),
    now: server.clock.now(),
  });
}

/** An operator, made once as the command line makes one, signed in with a passkey: two factors, as the operators' routes ask. */
async function exampleOperator(): Promise<string> {
  if (!made.operator) {
    const operator = await accountWithExamplePassword('operator@example.com');
    await grantOperator(mailed.server.server.ctx, { via: 'cli', user: 'test@localhost' }, operator.id);
    const passkey = await addPasskey(mailed.server, operator.token, EXAMPLE_PASSWORD);
    made.operator = await signInWithPasskey(mailed.server, passkey);
  }
  return made.operator;
}

async function addPasskeyRow(accountId: number): Promise<void> {
  await mailed.server.server.ctx.db.kysely
    .insertInto('passkeys')
    .values({
      account_id: accountId,
      credential_id: `example-${accountId}`,
      public_key: 'x',
      counter: 0,
      transports: '',
      backed_up: 0,
      name: 'Key',
      created_at: mailed.server.clock.now(),
    })
    .execute();
}

/** The account the operators' examples act on, last deleted. */
async function operatedOn(): Promise<{ token: string; id: number }> {
  made.operatedOn ??= (await accountWithExamplePassword('operated-on@example.com')).id;
  return { token: await exampleOperator(), id: made.operatedOn };
}

const STORY: Step[] = [
  { operationId: 'register', send: () => ({}), keep: (body) => (made.adaId = body.id) },
  {
    operationId: 'verifyEmail',
    example: 'key',
    send: async () => ({ secrets: { key: await verificationKey(mailed.sink, EXAMPLE_EMAIL) } }),
  },
  { operationId: 'login', send: () => ({}), keep: (body) => (made.ada = body.token) },
  { operationId: 'updateAccount', send: () => ({ token: made.ada }) },
  { operationId: 'replaceAccount', send: () => ({ token: made.ada }) },
  // The address just added, the one whose id a person has at hand: verified first (with the code
  // e-mailed to it), then made primary; then the address Ada registered with, sent back whole,
  // primary again.
  { operationId: 'createEmailAddress', send: () => ({ token: made.ada }), keep: (body) => (made.addedAddress = body.id) },
  {
    operationId: 'verifyEmail',
    example: 'code',
    send: async () => ({ secrets: { email_code: emailCodeIn(await waitForMail(mailed.sink, EXAMPLE_ADDED_EMAIL, VERIFY_SUBJECT)) } }),
  },
  { operationId: 'updateEmailAddress', send: () => ({ token: made.ada, id: made.addedAddress }) },
  {
    operationId: 'replaceEmailAddress',
    send: async () => {
      const addresses = await mailed.server.request('GET', '/account/emails/', { token: made.ada });
      const registered = addresses.body.find((address: Json) => address.email === EXAMPLE_EMAIL);
      return { token: made.ada, id: registered.id };
    },
  },
  { operationId: 'resetPassword', send: () => ({}) },
  { operationId: 'createAppUser', send: () => ({ token: made.ada }), keep: (body) => (made.appUser = body.id) },
  { operationId: 'updateAppUser', send: () => ({ token: made.ada, id: made.appUser }) },
  { operationId: 'replaceAppUser', send: () => ({ token: made.ada, id: made.appUser }) },
  { operationId: 'createProfile', send: () => ({ token: made.ada, id: made.appUser }), keep: (body) => (made.profile = body.id) },
  { operationId: 'updateProfile', send: () => ({ token: made.ada, id: made.profile }) },
  { operationId: 'replaceProfile', send: () => ({ token: made.ada, id: made.profile }) },
  { operationId: 'createTopic', send: () => ({ token: made.ada, id: made.profile }), keep: (body) => (made.topic = body.id) },
  { operationId: 'updateTopic', send: () => ({ token: made.ada, id: made.topic }) },
  { operationId: 'replaceTopic', send: () => ({ token: made.ada, id: made.topic }) },
  {
    operationId: 'createItem',
    example: 'list',
    send: () => ({ token: made.ada, id: made.topic }),
    keep: (body) => (made.listItem = body.id),
  },
  {
    operationId: 'createItem',
    example: 'image',
    send: () => ({ token: made.ada, id: made.topic }),
    keep: (body) => (made.imageItem = body.id),
  },
  { operationId: 'updateItem', send: () => ({ token: made.ada, id: made.listItem }) },
  { operationId: 'replaceItem', example: 'list', send: () => ({ token: made.ada, id: made.listItem }) },
  { operationId: 'replaceItem', example: 'image', send: () => ({ token: made.ada, id: made.imageItem }) },
  { operationId: 'createListEntry', send: () => ({ token: made.ada, id: made.listItem }), keep: (body) => (made.entry = body.id) },
  { operationId: 'updateListEntry', send: () => ({ token: made.ada, id: made.entry }) },
  { operationId: 'replaceListEntry', send: () => ({ token: made.ada, id: made.entry }) },
  {
    operationId: 'createEmergencyItem',
    send: () => ({ token: made.ada, id: made.appUser }),
    keep: (body) => (made.emergencyItem = body.id),
  },
  { operationId: 'updateEmergencyItem', send: () => ({ token: made.ada, id: made.emergencyItem }) },
  { operationId: 'replaceEmergencyItem', send: () => ({ token: made.ada, id: made.emergencyItem }) },
  {
    operationId: 'createEmergencyContact',
    send: () => ({ token: made.ada, id: made.appUser }),
    keep: (body) => (made.emergencyContact = body.id),
  },
  { operationId: 'updateEmergencyContact', send: () => ({ token: made.ada, id: made.emergencyContact }) },
  { operationId: 'replaceEmergencyContact', send: () => ({ token: made.ada, id: made.emergencyContact }) },
  { operationId: 'createAccessor', send: () => ({ token: made.ada, id: made.appUser }), keep: (body) => (made.accessor = body.id) },
  { operationId: 'updateAccessor', send: () => ({ token: made.ada, id: made.accessor }) },
  // The link's token is in the create's answer only; a person copies it from there.
  {
    operationId: 'createEmergencyLink',
    send: () => ({ token: made.ada, id: made.appUser }),
    keep: (body) => {
      made.emergencyLink = body.id;
      made.emergencyLinkToken = new URL(body.link).pathname.split('/').pop();
    },
  },
  { operationId: 'updateEmergencyLink', send: () => ({ token: made.ada, id: made.emergencyLink }) },
  { operationId: 'unlockEmergencyLink', send: () => ({ params: { token: made.emergencyLinkToken } }) },
  {
    operationId: 'updateMediaResource',
    send: async () => {
      made.media = await mediaOf(mailed.server.server.ctx.db.kysely, made.adaId, made.appUser, { now: mailed.server.clock.now() });
      return { token: made.ada, id: made.media };
    },
  },
  { operationId: 'replaceMediaResource', send: () => ({ token: made.ada, id: made.media }) },
  { operationId: 'createMessagingToken', send: () => ({ token: made.ada }) },
  // MFA: on, new recovery codes, a login with a code, off.
  { operationId: 'startPasskeyRegistration', send: () => ({ token: made.ada }), keep: (body) => (made.passkeyOptions = body) },
  {
    operationId: 'createPasskey',
    send: () => ({ token: made.ada, secrets: { response: authenticator.create(made.passkeyOptions) } }),
    keep: (body) => (made.passkey = body.id),
  },
  { operationId: 'updatePasskey', send: () => ({ token: made.ada, id: made.passkey }) },
  { operationId: 'replacePasskey', send: () => ({ token: made.ada, id: made.passkey }) },
  {
    operationId: 'signInWithPasskey',
    send: async () => {
      const options = await mailed.server.request('POST', '/auth/passkey/options/');
      assert.equal(options.status, 200, options.text);
      return { secrets: { response: authenticator.get(options.body) } };
    },
  },
  // Sign in with another provider: the test providers sign what a provider or an app would send.
  { operationId: 'linkIdentity', send: () => ({ token: made.ada, id: 'google' }) },
  {
    operationId: 'signInWithIdToken',
    send: async () => ({
      params: { name: 'google' },
      secrets: {
        id_token: await providers.google.sign({
          sub: 'example-app',
          email: 'app-person@example.com',
          email_verified: true,
          nonce: 'n-0S6_WzA2Mj',
        }),
      },
    }),
  },
  {
    operationId: 'loginWithCode',
    send: async () => {
      const { code, browser } = await webLoginCode('example-web');
      return { secrets: { code }, headers: browser.headers() };
    },
  },
  {
    operationId: 'receiveAppleNotification',
    send: async () => ({
      secrets: {
        // Dated by the service's clock, which the story moves: an event a day old is refused.
        payload: await providers.apple.sign(
          {
            aud: providers.apple.clientIds[0],
            events: JSON.stringify({ type: 'email-disabled', sub: 'example-app', event_time: mailed.server.clock.now() }),
          },
          { issuedAt: Math.floor(mailed.server.clock.now() / 1000) },
        ),
      },
    }),
  },
  { operationId: 'startTotpEnrolment', send: () => ({ token: made.ada }), keep: (body) => (made.totpSecret = body.secret) },
  { operationId: 'confirmTotp', send: () => ({ token: made.ada, secrets: { code: mfaCode() } }) },
  { operationId: 'regenerateRecoveryCodes', send: () => ({ token: made.ada, secrets: { code: mfaCode() } }) },
  {
    operationId: 'completeMfaLogin',
    send: async () => {
      const login = await mailed.server.request('POST', '/auth/login/', { body: { username: EXAMPLE_EMAIL, password: EXAMPLE_PASSWORD } });
      assert.equal(login.body.mfa_required, true, login.text);
      return { secrets: { mfa_token: login.body.mfa_token, code: mfaCode() } };
    },
  },
  { operationId: 'disableTotp', send: () => ({ token: made.ada, secrets: { code: mfaCode() } }) },
  // Ada's password changes last; the reset by key and the deletion each need an account of their own.
  { operationId: 'changePassword', example: 'current', send: () => ({ token: made.ada }) },
  {
    operationId: 'changePassword',
    example: 'reset',
    send: async () => {
      const email = 'grace@example.com';
      await accountWithExamplePassword(email);
      const reset = await mailed.server.request('POST', '/account/reset-password/', { body: { email } });
      assert.equal(reset.status, 200, reset.text);
      return { secrets: { key: SmtpSink.keyIn(await waitForMail(mailed.sink, email, RESET_SUBJECT)) } };
    },
  },
  {
    operationId: 'changePassword',
    example: 'resetCode',
    send: async () => {
      await accountWithExamplePassword(EXAMPLE_RESET_EMAIL);
      const reset = await mailed.server.request('POST', '/account/reset-password/', { body: { email: EXAMPLE_RESET_EMAIL } });
      assert.equal(reset.status, 200, reset.text);
      return { secrets: { email_code: emailCodeIn(await waitForMail(mailed.sink, EXAMPLE_RESET_EMAIL, RESET_SUBJECT)) } };
    },
  },
  { operationId: 'requestEmailCode', send: () => ({}) },
  {
    operationId: 'loginWithEmailCode',
    send: async () => ({ secrets: { email_code: emailCodeIn(await waitForMail(mailed.sink, EXAMPLE_EMAIL, 'Your sign-in code')) } }),
  },
  { operationId: 'deleteAccount', send: async () => ({ token: (await accountWithExamplePassword('mary@example.com')).token }) },
  { operationId: 'adminDisableAccount', send: operatedOn },
  { operationId: 'adminEnableAccount', send: operatedOn },
  { operationId: 'adminEndSessions', send: operatedOn },
  {
    operationId: 'adminTurnOffSecondFactor',
    send: async () => {
      const sending = await operatedOn();
      await addPasskeyRow(sending.id);
      return sending;
    },
  },
  {
    operationId: 'adminResendVerification',
    send: async () => {
      const sending = await operatedOn();
      await mailed.server.server.ctx.db.kysely
        .insertInto('email_addresses')
        .values({
          account_id: sending.id,
          email: 'unverified@example.com',
          email_lower: 'unverified@example.com',
          verified: 0,
          is_primary: 0,
          verified_action: 1,
          created_at: mailed.server.clock.now(),
        })
        .execute();
      return sending;
    },
  },
  {
    operationId: 'adminRetryOutboxMessage',
    send: async () => {
      const now = mailed.server.clock.now();
      const failed = await mailed.server.server.ctx.db.kysely
        .insertInto('outbox')
        .values({
          kind: 'email',
          payload: '{}',
          state: 'failed',
          attempts: 8,
          next_attempt_at: now,
          created_at: now,
          last_error: 'refused',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { token: await exampleOperator(), id: failed.id };
    },
  },
  {
    operationId: 'adminCreateWebhook',
    send: async () => ({ token: await exampleOperator() }),
    keep: (body) => (made.webhook = body.id),
  },
  { operationId: 'adminUpdateWebhook', send: async () => ({ token: await exampleOperator(), id: made.webhook }) },
  { operationId: 'adminDeleteAccount', send: operatedOn },
];

const stepName = (step: Pick<Step, 'operationId' | 'example'>) => `${step.operationId}${step.example ? ` (${step.example})` : ''}`;

/** An operation of the document, with its JSON request body's media type object. */
interface Documented {
  key: string;
  operationId: string;
  method: string;
  path: string;
  media: Json | undefined;
}

function documented(doc: OpenApiDocument): Documented[] {
  return listOperations(doc).map((operation) => {
    const written = doc.paths[operation.path]![operation.method.toLowerCase()];
    return {
      key: operation.key,
      operationId: written.operationId,
      method: operation.method,
      path: operation.path,
      media: written.requestBody?.content?.['application/json'],
    };
  });
}

/** The example values of a media type: the single one under '', named ones under their names. */
function examplesOf(media: Json): Map<string, unknown> {
  const examples = new Map<string, unknown>();
  if (media.example !== undefined) examples.set('', media.example);
  for (const [name, example] of Object.entries<Json>(media.examples ?? {})) examples.set(name, example.value);
  return examples;
}

let providers: { google: TestOidcProvider; apple: TestOidcProvider };

/**
 * The web flow through the test provider's own pages, up to the one-time code the service hands
 * the web client, in one browser: the code is that browser's only.
 */
async function webLoginCode(subject: string): Promise<{ code: string; browser: CookieJar }> {
  const browser = new CookieJar();
  const started = await fetch(`${mailed.server.url}/auth/oidc/google/start/`, { redirect: 'manual' });
  assert.equal(started.status, 302);
  browser.take(started.headers);
  const answer = await signInAtProvider(started.headers.get('location')!, subject, PUBLIC_URL);
  const callback = await fetch(mailed.server.url + answer.url.slice(PUBLIC_URL.length), { redirect: 'manual', headers: browser.headers() });
  assert.equal(callback.status, 302);
  return { code: new URLSearchParams(new URL(callback.headers.get('location')!).hash.slice(1)).get('code')!, browser };
}

function messagingEnv(): Record<string, string> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const file = join(tempDir('openapi-examples-'), 'messaging.pem');
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
  return {
    MESSAGING_PROVIDER_ID: 'layer:///providers/example',
    MESSAGING_KEY_ID: 'layer:///keys/example',
    MESSAGING_PRIVATE_KEY_FILE: file,
  };
}

describe('the request examples of the OpenAPI document, sent as they are', () => {
  let server: TestServer;
  let doc: Json;
  let operations: Documented[];

  before(async () => {
    providers = { google: await startTestProvider('google', PUBLIC_URL), apple: await startTestProvider('apple', PUBLIC_URL) };
    mailed = await startMailedServer({
      ...messagingEnv(),
      OIDC_PROVIDERS: 'google,apple',
      ...providers.google.env,
      ...providers.apple.env,
    });
    server = mailed.server;
    const response = await server.request('GET', '/openapi.json');
    assert.equal(response.status, 200);
    doc = response.body;
    operations = documented(response.body);
  });
  after(async () => {
    await mailed.close();
    await providers.google.close();
    await providers.apple.close();
  });

  test('every operation with a JSON request body has an example, and every path id one', () => {
    const missing = operations.filter((operation) => operation.media && examplesOf(operation.media).size === 0).map((o) => o.key);
    assert.deepEqual(missing, [], 'operations whose JSON request body has no example');
    for (const operation of operations) {
      for (const parameter of doc.paths[operation.path][operation.method.toLowerCase()].parameters ?? []) {
        // (Linking an identity names the provider there: a name, not an id.)
        if (parameter.in === 'path' && parameter.name === 'id' && parameter.schema.type === 'integer') {
          assert.equal(parameter.example, 1, operation.key);
        }
      }
    }
  });

  test('the story sends every example of the document, each once', () => {
    const inDocument = operations.flatMap((operation) =>
      [...examplesOf(operation.media ?? {}).keys()].map((name) =>
        stepName({ operationId: operation.operationId, example: name || undefined }),
      ),
    );
    const inStory = STORY.map(stepName);
    assert.deepEqual([...inStory].sort(), [...inDocument].sort(), 'add a step to STORY for each new example (and remove gone ones)');
  });

  /** The story's first failed step: the later ones depend on it, so they are not sent. */
  let failed: string | undefined;

  for (const step of STORY) {
    test(`${stepName(step)} answers 2xx`, async () => {
      if (failed) assert.fail(`not sent: ${failed} failed before it`);
      failed = stepName(step);
      const operation = operations.find((candidate) => candidate.operationId === step.operationId);
      assert.ok(operation?.media, `${step.operationId}: no operation with a JSON body in the document`);
      const example = structuredClone(examplesOf(operation.media).get(step.example ?? '')) as Json | undefined;
      assert.ok(example, `${stepName(step)}: no such example`);
      const sending = await step.send();
      for (const [field, value] of Object.entries(sending.secrets ?? {})) {
        assert.ok(SECRET_FIELDS.includes(field), `${field} is not a one-time secret: the example must work as written`);
        assert.ok(field in example, `${stepName(step)}: the example has no ${field} to fill in`);
        example[field] = value;
      }
      let path = operation.path.replace('{id}', String(sending.id));
      for (const [name, value] of Object.entries(sending.params ?? {})) path = path.replace(`{${name}}`, encodeURIComponent(value));
      assert.ok(!path.includes('{'), `${stepName(step)}: ${path} needs a path id`);
      const response = await server.request(operation.method, path, { token: sending.token, body: example, headers: sending.headers });
      assert.ok(
        response.status >= 200 && response.status < 300,
        `${operation.method} ${path} ${JSON.stringify(example)}: ${response.status} ${response.text}`,
      );
      step.keep?.(response.body ?? {});
      failed = undefined;
    });
  }
});
