// The client of the public emergency pages (docs/emergency-links.md): the same generated types as `api`,
// but never a token. Whoever opens an emergency link may be signed in on this browser, and
// the link's 401 asking for a PIN must not sign them out (client.ts forgets the token on any
// 401); nor does the public page need or send an account's credentials.
import createClient from 'openapi-fetch';
import { speakLanguage } from './language-header.ts';
import type { paths } from './schema';

export const publicApi = createClient<paths>({ baseUrl: window.location.origin });
publicApi.use(speakLanguage);
