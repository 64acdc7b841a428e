// The browser a provider's web flow belongs to (login CSRF, link CSRF): the flow's start (GET
// /auth/oidc/{name}/start/, or a link's POST /account/identities/{name}/) sets a random value
// in a __Host- cookie (Secure, HttpOnly, SameSite=Lax, Path=/, no Domain: no other host or
// path can set or read it) and keeps its hash with the flow; the callback takes the flow only
// with that cookie, and the one-time login code it makes is redeemed only with it too. Someone
// handed another person's callback or code URL (or a link flow's provider page) gets nowhere.
//
// One value per browser, kept while it is sent back, so flows started in two tabs both finish.
// Secure: browsers keep it from https:// pages and from http://localhost and http://127.0.0.1
// (potentially trustworthy origins), so local development works without TLS.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashSecret, newSecret } from '../../auth/token-hash.ts';
import { cookieNamed } from '../../http/cookies.ts';
import { FLOW_TTL_MS } from './identity-sign-in.ts';
import { LOGIN_CODE_TTL_MS } from './login-code-queries.ts';

export const SIGN_IN_BROWSER_COOKIE = '__Host-sign-in-browser';

/** Long enough for a flow started now to end in a login code, and the code to be redeemed. */
const MAX_AGE_S = (FLOW_TTL_MS + LOGIN_CODE_TTL_MS) / 1000;

/** A value this service made: 43 base64url characters (newSecret). */
const VALUE = /^[A-Za-z0-9_-]{43}$/;

/** The hash of the browser's cookie, or undefined when it sent none of ours. */
export function signInBrowserOf(request: FastifyRequest): string | undefined {
  const value = cookieNamed(request.headers.cookie, SIGN_IN_BROWSER_COOKIE);
  return value !== undefined && VALUE.test(value) ? hashSecret(value) : undefined;
}

/** Starting a flow: the browser's cookie (renewed), or a new one; its hash, for the flow. */
export function bindSignInBrowser(request: FastifyRequest, reply: FastifyReply): string {
  const sent = cookieNamed(request.headers.cookie, SIGN_IN_BROWSER_COOKIE);
  const value = sent !== undefined && VALUE.test(sent) ? sent : newSecret();
  reply.header('set-cookie', `${SIGN_IN_BROWSER_COOKIE}=${value}; Max-Age=${MAX_AGE_S}; Path=/; Secure; HttpOnly; SameSite=Lax`);
  return hashSecret(value);
}
