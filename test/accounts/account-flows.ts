// Account flows through the HTTP API, for the tests of registration, login and e-mail
// addresses: register, read the key from the real e-mail, verify, log in.
import { randomBytes } from 'node:crypto';
import { SmtpSink, type ReceivedMail } from '../helpers/smtp-sink.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

export const PASSWORD = 'violet-lantern-47-quarry';

export const VERIFY_SUBJECT = 'Confirm your e-mail address';
export const RESET_SUBJECT = 'Reset your password';
export const ADDED_SUBJECT = 'An e-mail address was added to your account';
export const CHANGED_SUBJECT = 'Your password was changed';

export interface MailedServer {
  server: TestServer;
  sink: SmtpSink;
  close(): Promise<void>;
}

/** The real service sending to a real SMTP server. */
export async function startMailedServer(env: Record<string, string> = {}): Promise<MailedServer> {
  const sink = new SmtpSink();
  await sink.listen();
  const server = await startTestServer({ SMTP_URL: sink.url, ...env });
  return {
    server,
    sink,
    async close() {
      await server.close();
      await sink.close();
    },
  };
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}

export function mailsTo(sink: SmtpSink, to: string, subject?: string): ReceivedMail[] {
  return sink.messages
    .filter((m) => m.to.includes(to.toLowerCase()) || m.to.includes(to))
    .filter((m) => subject === undefined || m.subject === subject);
}

/** Waits until `count` e-mails with `subject` have reached `to`; returns the last of them. */
export async function waitForMail(sink: SmtpSink, to: string, subject: string, count = 1): Promise<ReceivedMail> {
  await sink.waitFor(() => mailsTo(sink, to, subject).length >= count);
  return mailsTo(sink, to, subject)[count - 1]!;
}

export async function verificationKey(sink: SmtpSink, to: string, count = 1): Promise<string> {
  return SmtpSink.keyIn(await waitForMail(sink, to, VERIFY_SUBJECT, count));
}

export interface RegisteredAccount {
  id: number;
  email: string;
  password: string;
  token: string;
}

export async function register(
  server: TestServer,
  email: string,
  password = PASSWORD,
  names: { first_name?: string; last_name?: string } = {},
) {
  return server.request('POST', '/auth/register/', { body: { email, password, ...names } });
}

export async function logIn(server: TestServer, email: string, password = PASSWORD): Promise<string> {
  const response = await server.request('POST', '/auth/login/', { body: { username: email, password } });
  if (response.status !== 200) throw new Error(`login answered ${response.status}: ${response.text}`);
  return response.body.token;
}

/** Registers through the API, verifies with the e-mailed key and logs in. */
export async function registerVerified(mailed: MailedServer, email = uniqueEmail()): Promise<RegisteredAccount> {
  const { server, sink } = mailed;
  const registered = await register(server, email);
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}: ${registered.text}`);
  const key = await verificationKey(sink, email);
  const verified = await server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } });
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}: ${verified.text}`);
  return { id: registered.body.id, email, password: PASSWORD, token: await logIn(server, email) };
}
