// This service as an OpenID Connect relying party (docs/sign-in-providers.md): one OidcProvider per
// configured provider. `openid-client` does the protocol — discovery, the authorization URL
// with state, nonce and PKCE (S256), the callback's checks (state, issuer, audience, expiry,
// nonce) and the code exchange, revocation; `jose` checks the ID tokens apps send (signature
// against the provider's published keys, issuer, one of the client ids, expiry). Nothing here
// knows accounts: it turns what a provider sent into checked claims.
//
// Discovery happens on first use and is kept; a provider that cannot be reached is 503 for
// that request and tried again on the next.
import { hash, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import * as client from 'openid-client';
import type { OidcProviderConfig } from '../config.ts';
import { fieldError, nonFieldError, notFound, unavailable, message, type Message } from '../errors.ts';
import { appleClientSecret, loadAppleKey } from './apple-client-secret.ts';

/** The claims of a checked ID token that the service uses. */
export interface ProviderClaims {
  issuer: string;
  subject: string;
  /** The client id the token was issued to (one of the configured ones). */
  audience: string;
  email: string | undefined;
  emailVerified: boolean;
  /** Apple's relay addresses (is_private_email). */
  privateEmail: boolean;
  firstName: string;
  lastName: string;
  /** When the token stops being valid (ms): how long its replay record is kept. */
  expiresAt: number;
}

export interface ProviderSignIn {
  claims: ProviderClaims;
  /** Apple's, from the code exchange: kept (sealed) to revoke at the account's deletion. */
  refreshToken: string | undefined;
}

export const BAD_ID_TOKEN = 'identity.badIdToken';
export const EXPIRED_ID_TOKEN = 'identity.expiredIdToken';
export const WRONG_NONCE = 'identity.wrongNonce';
export const NO_EMAIL = 'The provider did not say which e-mail address this is; it is needed to make an account.';
export const PROVIDER_REFUSED = 'identity.providerRefused';
export const STALE_EVENT = 'identity.staleEvent';

const unreachable = (name: string) => unavailable(message('identity.providerUnreachable', { name }), 30);

export class OidcProvider {
  readonly settings: OidcProviderConfig;
  readonly redirectUri: string;
  readonly #appleKey: KeyObject | undefined;
  #discovered: Promise<client.Configuration> | undefined;
  #jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(settings: OidcProviderConfig, publicUrl: string) {
    this.settings = settings;
    this.redirectUri = `${publicUrl}/auth/oidc/${settings.name}/callback/`;
    this.#appleKey = settings.apple ? loadAppleKey(settings.apple.privateKeyFile) : undefined;
  }

  get isApple(): boolean {
    return this.settings.apple !== undefined;
  }

  /** Discovery, once; its failure is not kept, so the next request tries again. */
  async configuration(): Promise<client.Configuration> {
    this.#discovered ??= this.#discover().catch((error) => {
      this.#discovered = undefined;
      throw error;
    });
    return this.#discovered;
  }

  async #discover(): Promise<client.Configuration> {
    const insecure = new URL(this.settings.issuer).protocol === 'http:';
    try {
      return await client.discovery(
        new URL(this.settings.issuer),
        this.settings.clientIds[0]!,
        { redirect_uris: [this.redirectUri] },
        this.#clientAuth(),
        // http:// is allowed only on a loopback address (src/config/sign-in-providers.ts): local development and tests.
        insecure ? { execute: [client.allowInsecureRequests] } : undefined,
      );
    } catch {
      throw unreachable(this.settings.name);
    }
  }

  /**
   * How this service proves itself at the token and revocation endpoints: Apple's secret is a
   * short-lived ES256 JWT made for the client id in use; others have a fixed secret, or none
   * (a public client, PKCE alone).
   */
  #clientAuth(): client.ClientAuth {
    const { apple, clientSecret } = this.settings;
    const key = this.#appleKey;
    if (apple && key) {
      // openid-client awaits the client authentication: making the JWT may be asynchronous.
      const auth = async (_as: client.ServerMetadata, metadata: client.ClientMetadata, body: URLSearchParams) => {
        body.set('client_id', metadata.client_id);
        body.set('client_secret', await appleClientSecret(key, apple, metadata.client_id, this.settings.issuer));
      };
      return auth as unknown as client.ClientAuth;
    }
    return clientSecret === undefined ? client.None() : client.ClientSecretPost(clientSecret);
  }

  /** A new web flow's state, nonce and PKCE verifier, each random. */
  newChecks(): { state: string; nonce: string; codeVerifier: string } {
    return { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
  }

  /** The provider's authorization URL for a web sign-in with these checks. */
  async authorizationUrl(checks: { state: string; nonce: string; codeVerifier: string }): Promise<string> {
    const config = await this.configuration();
    const parameters: Record<string, string> = {
      redirect_uri: this.redirectUri,
      response_type: 'code',
      scope: this.isApple ? 'openid email name' : 'openid email profile',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    };
    // Apple sends the answer as a form POST whenever the name or e-mail scope is asked for.
    if (this.isApple) parameters.response_mode = 'form_post';
    return client.buildAuthorizationUrl(config, parameters).href;
  }

  /**
   * The provider's answer at the callback (query or form fields): checks state, issuer,
   * audience, expiry and nonce, redeems the code with the PKCE verifier.
   */
  async completeCallback(
    answer: URLSearchParams,
    checks: { state: string; nonce: string; codeVerifier: string },
    now: number,
  ): Promise<ProviderSignIn> {
    const config = await this.configuration();
    const current = new URL(this.redirectUri);
    for (const [name, value] of answer) current.searchParams.append(name, value);
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, current, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      });
    } catch (error) {
      if (isUnreachable(error)) throw unreachable(this.settings.name);
      throw nonFieldError(callbackProblem(error));
    }
    const payload = tokens.claims();
    if (!payload) throw nonFieldError(BAD_ID_TOKEN);
    const claims = claimsOf(payload as JWTPayload, this.settings.clientIds);
    if (claims.expiresAt <= now) throw nonFieldError(EXPIRED_ID_TOKEN);
    return { claims, refreshToken: tokens.refresh_token };
  }

  /**
   * An ID token an app got from the platform's own sign-in: its signature against the
   * provider's keys, issuer, one of the client ids, expiry at `now`, and the nonce (Apple:
   * the SHA-256, in hex, of the one the app sent).
   */
  async verifyIdToken(idToken: string, nonce: string | undefined, now: number): Promise<ProviderClaims> {
    const config = await this.configuration();
    const metadata = config.serverMetadata();
    if (!metadata.jwks_uri) throw unreachable(this.settings.name);
    this.#jwks ??= createRemoteJWKSet(new URL(metadata.jwks_uri));
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.#jwks, {
        issuer: metadata.issuer,
        audience: this.settings.clientIds,
        currentDate: new Date(now),
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw fieldError('id_token', EXPIRED_ID_TOKEN);
      if (error instanceof joseErrors.JWKSTimeout || isUnreachable(error)) throw unreachable(this.settings.name);
      throw fieldError('id_token', BAD_ID_TOKEN);
    }
    const expected = nonce === undefined ? undefined : this.isApple ? hash('sha256', nonce, 'hex') : nonce;
    if (payload.nonce !== expected) throw fieldError('nonce', WRONG_NONCE);
    return claimsOf(payload, this.settings.clientIds);
  }

  /**
   * An app's authorization code (Apple's native sign-in sends one beside the ID token),
   * redeemed as the app's client id: what it yields is the refresh token.
   */
  async redeemAppCode(code: string, clientId: string): Promise<string | undefined> {
    const config = await this.configuration();
    const asApp = new client.Configuration(config.serverMetadata(), clientId, {}, this.#clientAuth());
    if (new URL(this.settings.issuer).protocol === 'http:') client.allowInsecureRequests(asApp);
    try {
      return (await client.genericGrantRequest(asApp, 'authorization_code', { code })).refresh_token;
    } catch (error) {
      if (isUnreachable(error)) throw unreachable(this.settings.name);
      throw fieldError('code', PROVIDER_REFUSED);
    }
  }

  /** Revokes a refresh token at the provider's revocation_endpoint (Apple, at the account's deletion). */
  async revoke(refreshToken: string, clientId: string): Promise<void> {
    const config = await this.configuration();
    const asClient = new client.Configuration(config.serverMetadata(), clientId, {}, this.#clientAuth());
    if (new URL(this.settings.issuer).protocol === 'http:') client.allowInsecureRequests(asClient);
    await client.tokenRevocation(asClient, refreshToken, { token_type_hint: 'refresh_token' });
  }

  /**
   * A signed event Apple posts (its notification endpoint): checked as an ID token is, less the
   * nonce, and issued (`iat`) at most `maxAgeMs` before `now`: an old event, captured and sent
   * again, is refused.
   */
  async verifySignedEvent(jws: string, now: number, maxAgeMs: number): Promise<JWTPayload> {
    const config = await this.configuration();
    const metadata = config.serverMetadata();
    if (!metadata.jwks_uri) throw unreachable(this.settings.name);
    this.#jwks ??= createRemoteJWKSet(new URL(metadata.jwks_uri));
    try {
      const { payload } = await jwtVerify(jws, this.#jwks, {
        issuer: metadata.issuer,
        audience: this.settings.clientIds,
        currentDate: new Date(now),
        maxTokenAge: Math.floor(maxAgeMs / 1000),
      });
      return payload;
    } catch (error) {
      if (error instanceof joseErrors.JWKSTimeout || isUnreachable(error)) throw unreachable(this.settings.name);
      if (error instanceof joseErrors.JWTExpired) throw fieldError('payload', STALE_EVENT);
      throw fieldError('payload', BAD_ID_TOKEN);
    }
  }
}

/** The configured providers by name. */
export class OidcProviders {
  readonly #byName: Map<string, OidcProvider>;

  constructor(settings: OidcProviderConfig[], publicUrl: string) {
    this.#byName = new Map(settings.map((provider) => [provider.name, new OidcProvider(provider, publicUrl)]));
  }

  list(): OidcProvider[] {
    return [...this.#byName.values()];
  }

  /** The provider a URL names; 404 when none is configured by that name. */
  named(name: string): OidcProvider {
    const provider = this.#byName.get(name);
    if (!provider) throw notFound();
    return provider;
  }

  find(name: string): OidcProvider | undefined {
    return this.#byName.get(name);
  }
}

function claimsOf(payload: JWTPayload, clientIds: string[]): ProviderClaims {
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  let audience = audiences.find((aud) => aud !== undefined && clientIds.includes(aud));
  // A token for several audiences says which party it was issued to (azp): one of ours, or
  // another audience could use it here.
  if (audiences.length > 1) audience = typeof payload.azp === 'string' && clientIds.includes(payload.azp) ? payload.azp : undefined;
  if (!audience || typeof payload.sub !== 'string' || typeof payload.iss !== 'string' || typeof payload.exp !== 'number') {
    throw fieldError('id_token', BAD_ID_TOKEN);
  }
  const email = typeof payload.email === 'string' && payload.email.includes('@') ? payload.email : undefined;
  // Apple sends its booleans as strings.
  const flag = (value: unknown) => value === true || value === 'true';
  return {
    issuer: payload.iss,
    subject: payload.sub,
    audience,
    email,
    emailVerified: email !== undefined && flag(payload.email_verified),
    privateEmail: flag(payload.is_private_email),
    firstName: typeof payload.given_name === 'string' ? payload.given_name.slice(0, 150) : '',
    lastName: typeof payload.family_name === 'string' ? payload.family_name.slice(0, 150) : '',
    expiresAt: payload.exp * 1000,
  };
}

/** The sentence for a callback openid-client refused; its own message is in the error's cause. */
function callbackProblem(error: unknown): Message {
  if (error instanceof client.AuthorizationResponseError) return PROVIDER_REFUSED;
  const message = error instanceof Error ? `${error.message} ${error.cause instanceof Error ? error.cause.message : ''}` : '';
  if (/nonce/i.test(message)) return WRONG_NONCE;
  if (/"exp"|expired/i.test(message)) return EXPIRED_ID_TOKEN;
  if (/state/i.test(message)) return PROVIDER_REFUSED;
  return BAD_ID_TOKEN;
}

function isUnreachable(error: unknown): boolean {
  return error instanceof TypeError && /fetch failed/i.test(error.message);
}
