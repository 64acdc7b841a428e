// A real OpenID provider for the tests (`oidc-provider` from npm), in this process on a
// loopback port: one configured like Google (code flow, answer in the query, a client
// secret) or one like Apple (answer as a form POST, PKCE required, the client secret an ES256
// JWT the service signs with the operator's key, refresh tokens, a revocation endpoint).
// Its login page is its real development page (any login, any password): the login becomes
// the subject, and `people` says what e-mail address the provider gives for it.
//
// The tests also sign ID tokens and Apple's notifications themselves with the provider's own
// key (the one its JWKS publishes), to make tokens the provider would not: expired, for
// another audience, with another nonce.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';
import { tempDir } from './temp-dir.ts';

export interface Person {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

export interface TestOidcProvider {
  kind: 'google' | 'apple';
  issuer: string;
  /** The web client id, then an app's. */
  clientIds: string[];
  /** The service's environment for this provider (OIDC_<NAME>_…), less OIDC_PROVIDERS. */
  env: Record<string, string>;
  /** What the provider says about each login (default: `<login>@example.com`, verified). */
  people: Map<string, Person>;
  /** Refresh tokens revoked at the revocation endpoint, and Apple client secrets it accepted. */
  revoked: string[];
  appleSecretsAccepted: number;
  /** Signs a JWT with the provider's own key (an ID token, or Apple's event). */
  sign(claims: JWTPayload, options?: { expiresIn?: number; issuedAt?: number }): Promise<string>;
  close(): Promise<void>;
}

export const TEAM_ID = 'TEAM123456';
export const KEY_ID = 'KEY1234567';

export async function startTestProvider(kind: 'google' | 'apple', serviceUrl: string): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingJwk = { ...(await exportJWK(privateKey)), kid: `test-${kind}`, alg: 'RS256', use: 'sig' };

  const webClientId = kind === 'apple' ? 'com.example.profiles.web' : 'web-client.apps.example.com';
  const appClientId = kind === 'apple' ? 'com.example.profiles' : 'android-client.apps.example.com';
  const clientSecret = kind === 'google' ? 'google-client-secret' : 'apple-secret-is-a-jwt';
  const redirectUri = `${serviceUrl}/auth/oidc/${kind}/callback/`;
  const people = new Map<string, Person>();
  const revoked: string[] = [];

  let appleKeyFile: string | undefined;
  let applePublicKey: KeyObject | undefined;
  if (kind === 'apple') {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    appleKeyFile = join(tempDir('apple-key-'), 'AuthKey.p8');
    writeFileSync(appleKeyFile, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    applePublicKey = pair.publicKey;
  }

  const client = (clientId: string) => ({
    client_id: clientId,
    client_secret: clientSecret,
    redirect_uris: [redirectUri],
    response_types: ['code'],
    grant_types: kind === 'apple' ? ['authorization_code', 'refresh_token'] : ['authorization_code'],
    token_endpoint_auth_method: 'client_secret_post',
  });

  const provider = new Provider(issuer, {
    clients: [client(webClientId), client(appClientId)],
    jwks: { keys: [signingJwk as never] },
    scopes: ['openid', 'email', 'profile', 'name', 'offline_access'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'], name: [] },
    // Claims in the ID token itself, as Google and Apple put them there.
    conformIdTokenClaims: false,
    // Apple: PKCE required of the web flow; an app's own sign-in sheet has none (its code is
    // redeemed by the service without a verifier). Google's web client may use it.
    pkce: { required: (_ctx: unknown, c: { clientId: string }) => kind === 'apple' && c.clientId === webClientId },
    features: {
      devInteractions: { enabled: true },
      // Records each refresh token the service revokes (found: it was one the provider issued).
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, _client: unknown, token: { kind: string; jti: string }) => {
          if (token.kind === 'RefreshToken') revoked.push(token.jti);
          return true;
        },
      },
    },
    // Apple hands out a refresh token with the first code.
    issueRefreshToken: async (_ctx, c) => kind === 'apple' && c.grantTypeAllowed('refresh_token'),
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        async claims() {
          const person = people.get(sub) ?? {};
          return {
            sub,
            email: person.email ?? (sub.includes('@') ? sub : `${sub}@example.com`),
            email_verified: person.email_verified ?? true,
            given_name: person.given_name ?? 'Grace',
            family_name: person.family_name ?? 'Hopper',
          };
        },
      };
    },
  });
  if (applePublicKey) {
    const publicKey = applePublicKey;
    const compare = provider.Client.prototype.compareClientSecret;
    // Apple's client secret is a JWT the service signs: accepted when it is one, for this client.
    provider.Client.prototype.compareClientSecret = async function (
      this: { clientId: string; grantTypeAllowed(type: string): boolean },
      actual: string,
    ) {
      try {
        await jwtVerify(actual, publicKey, { issuer: TEAM_ID, audience: issuer, subject: this.clientId, algorithms: ['ES256'] });
        result.appleSecretsAccepted += 1;
        return true;
      } catch {
        return compare.call(this, 'not-the-secret');
      }
    } as never;
  }
  server.on('request', provider.callback());

  const env: Record<string, string> = {
    [`OIDC_${kind.toUpperCase()}_ISSUER`]: issuer,
    [`OIDC_${kind.toUpperCase()}_CLIENT_ID`]: `${webClientId},${appClientId}`,
  };
  if (kind === 'google') env.OIDC_GOOGLE_CLIENT_SECRET = clientSecret;
  else Object.assign(env, { OIDC_APPLE_TEAM_ID: TEAM_ID, OIDC_APPLE_KEY_ID: KEY_ID, OIDC_APPLE_PRIVATE_KEY_FILE: appleKeyFile! });

  const result: TestOidcProvider = {
    kind,
    issuer,
    clientIds: [webClientId, appClientId],
    env,
    people,
    revoked,
    appleSecretsAccepted: 0,
    async sign(claims, options = {}) {
      const now = options.issuedAt ?? Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, aud: appClientId, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: signingJwk.kid })
        .setIssuedAt(now)
        .setExpirationTime(now + (options.expiresIn ?? 600))
        .sign(privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return result;
}

/** Where the provider finally sends the browser: a redirect to the service, or Apple's form POST to it. */
export type ProviderAnswer = { method: 'GET'; url: string } | { method: 'POST'; url: string; fields: URLSearchParams };

/**
 * Goes through the provider's own pages from its authorization URL as a browser would
 * (cookies, redirects, its login and consent forms), signing in as `login`, until it sends
 * the browser back to `serviceUrl`.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, serviceUrl: string): Promise<ProviderAnswer> {
  // Cookies by name and path, sent where their path applies (the provider scopes its
  // interaction cookies to each interaction's path, and clears old ones as it sets new ones).
  const cookies = new Map<string, { name: string; value: string; path: string }>();
  const cookieHeader = (target: string) => {
    const path = new URL(target).pathname;
    return [...cookies.values()]
      .filter((cookie) => path.startsWith(cookie.path))
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  };
  let url = authorizationUrl;
  let method = 'GET';
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step += 1) {
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { cookie: cookieHeader(url), ...(body && { 'content-type': 'application/x-www-form-urlencoded' }) },
      body,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const path =
        attributes
          .map((a) => a.trim())
          .find((a) => a.toLowerCase().startsWith('path='))
          ?.slice(5) ?? '/';
      const key = `${name!.trim()}|${path}`;
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value.join('=') === '') cookies.delete(key);
      else cookies.set(key, { name: name!.trim(), value: value.join('='), path });
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url).href;
      if (next.startsWith(serviceUrl)) return { method: 'GET', url: next };
      url = next;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`the provider answered ${response.status}: ${html.slice(0, 500)}`);
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
    if (!form) throw new Error(`no form on the provider's page: ${html.slice(0, 500)}`);
    const action = new URL(form[1]!.replace(/&amp;/g, '&'), url).href;
    const fields = new URLSearchParams();
    for (const input of form[2]!.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)) {
      fields.append(input[1]!, decodeEntities(input[2]!));
    }
    if (action.startsWith(serviceUrl)) return { method: 'POST', url: action, fields };
    if (fields.get('prompt') === 'login') {
      fields.set('login', login);
      fields.set('password', 'any password');
    }
    url = action;
    method = 'POST';
    body = fields;
  }
  throw new Error('the provider never sent the browser back');
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
