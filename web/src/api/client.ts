// The only way the web client talks to the API: openapi-fetch over the types generated from
// the service's OpenAPI document (schema.d.ts, `npm run generate:client`). Adds the token
// (docs/accounts.md: `Authorization: Token <token>`) and forgets it when the API answers 401, saying why.
import createClient, { type Middleware } from 'openapi-fetch';
import { currentToken, explainSessionEnd, forgetToken } from '../session.ts';
import { speakLanguage } from './language-header.ts';
import { sessionEndOf } from './session-ended.ts';
import type { paths } from './schema';

export const api = createClient<paths>({ baseUrl: window.location.origin });

const tokenAuth: Middleware = {
  onRequest({ request }) {
    const token = currentToken();
    if (token) request.headers.set('Authorization', `Token ${token}`);
    return request;
  },
  async onResponse({ request, response }) {
    const sent = /^Token (.+)$/.exec(request.headers.get('Authorization') ?? '')?.[1];
    if (response.status === 401 && sent) await tokenRefused(sent, response);
    return response;
  },
};
api.use(tokenAuth, speakLanguage);

/** The last token the API refused while it was the one kept. */
let refused: string | undefined;

/**
 * The API answered 401 to `sent` (expired or revoked: a password change elsewhere, "sign out
 * everywhere", an operator disabling the account): signed out here too, and the sign-in page
 * says why. A page's requests go out together, and only the first to reach the service hears
 * that the token expired (it is revoked then), so a later answer saying so is kept too.
 */
export async function tokenRefused(sent: string, response: Response): Promise<void> {
  const reason = sessionEndOf(response);
  if (sent === currentToken()) {
    refused = sent;
    forgetToken(reason);
  } else if (sent === refused && reason === 'expired') explainSessionEnd(reason);
}

/** What a call of `api` resolves to, whatever the operation. */
export interface ApiResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}
