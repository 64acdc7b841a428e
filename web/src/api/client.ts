// The only way the web client talks to the API: openapi-fetch over the types generated from
// the service's OpenAPI document (schema.d.ts, `npm run generate:client`). Adds the token
// (docs/accounts.md: `Authorization: Token <token>`) and forgets it when the API answers 401.
import createClient, { type Middleware } from 'openapi-fetch';
import { currentToken, forgetToken } from '../session.ts';
import type { paths } from './schema';

export const api = createClient<paths>({ baseUrl: window.location.origin });

const tokenAuth: Middleware = {
  onRequest({ request }) {
    const token = currentToken();
    if (token) request.headers.set('Authorization', `Token ${token}`);
    return request;
  },
  onResponse({ response }) {
    // Expired or revoked (a password change elsewhere, "sign out everywhere"): signed out here too.
    if (response.status === 401 && currentToken()) forgetToken();
    return response;
  },
};
api.use(tokenAuth);

/** What a call of `api` resolves to, whatever the operation. */
export interface ApiResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}
