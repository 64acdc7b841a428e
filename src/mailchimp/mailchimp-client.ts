// The Mailchimp Marketing API v3 calls the service makes: add-or-update a list member, and
// delete one for good (a deleted account).
import { createHash } from 'node:crypto';
import type { Config } from '../config.ts';

export type MailchimpSettings = NonNullable<Config['mailchimp']>;

const REQUEST_TIMEOUT_MS = 10_000;

/** Mailchimp names a member by the MD5 of its lower-cased address. */
export function subscriberHash(email: string): string {
  return createHash('md5').update(email.toLowerCase()).digest('hex');
}

/** A non-2xx answer from the API, with the problem's title and detail when it sent them. */
export class MailchimpApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export interface MemberUpsert {
  /** The address the list knows the member by (its hash names the member to update). */
  memberEmail: string;
  email: string;
  firstName: string;
  lastName: string;
}

function memberUrl(settings: MailchimpSettings, email: string): string {
  return `${settings.apiUrl}/lists/${encodeURIComponent(settings.listId)}/members/${subscriberHash(email)}`;
}

/** PUT /lists/{list}/members/{hash}: creates the member, or updates it (address included). */
export async function upsertListMember(settings: MailchimpSettings, member: MemberUpsert): Promise<void> {
  await call(settings, 'PUT', memberUrl(settings, member.memberEmail), {
    email_address: member.email,
    status_if_new: 'subscribed',
    merge_fields: { FNAME: member.firstName, LNAME: member.lastName },
  });
}

/** POST /lists/{list}/members/{hash}/actions/delete-permanent; a member the list never had is done already. */
export async function deleteListMemberPermanently(settings: MailchimpSettings, email: string): Promise<void> {
  try {
    await call(settings, 'POST', `${memberUrl(settings, email)}/actions/delete-permanent`);
  } catch (error) {
    if (error instanceof MailchimpApiError && error.status === 404) return;
    throw error;
  }
}

async function call(settings: MailchimpSettings, method: string, url: string, body?: unknown): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        // Mailchimp ignores the user name of basic auth; the key is the password.
        authorization: `Basic ${Buffer.from(`anystring:${settings.apiKey}`).toString('base64')}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        accept: 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new Error(`Mailchimp request failed: ${reasonOf(error)}`);
  }
  if (response.ok) {
    await response.body?.cancel();
    return;
  }
  throw new MailchimpApiError(response.status, `Mailchimp answered ${response.status}: ${await problemOf(response)}`);
}

/** The API's problem document (RFC 7807) as "title: detail", or the start of whatever it sent. */
async function problemOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  let problem: { title?: unknown; detail?: unknown } | undefined;
  try {
    problem = JSON.parse(text) as typeof problem;
  } catch {
    // not JSON (a proxy's error page, say): its start is the best clue
    return text.trim().slice(0, 500) || response.statusText || 'no details';
  }
  const parts = [problem?.title, problem?.detail].filter((part): part is string => typeof part === 'string' && part !== '');
  return parts.length > 0 ? parts.join(': ') : response.statusText || 'no details';
}

/** fetch rejects with "fetch failed" and hides the reason (ECONNREFUSED, a timeout, …) in `cause`. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} seconds`;
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : undefined;
  return detail ? `${error.message} (${detail})` : error.message;
}
