// Sign in with another provider (docs/sign-in-providers.md): the providers, the web flow (start, callback
// by GET or Apple's form POST), the native flow (an app's ID token), Apple's notifications,
// and a signed-in person's identities (/account/identities/…). POST /auth/login/code/, which
// finishes the web flow, is the login room's.
import { Type } from 'typebox';
import { perIpRateLimit } from '../../auth/ip-rate-limits.ts';
import type { PasswordCheckThrottle } from '../../auth/password-check-throttle.ts';
import { callerOf } from '../../auth/token-auth.ts';
import type { AppContext } from '../../context.ts';
import { errors } from '../../http/error-schemas.ts';
import { parseId } from '../../http/ids.ts';
import type { App } from '../../http/types.ts';
import { receiveAppleNotification } from './apple-notifications.ts';
import {
  AppleNotificationBody,
  AuthorizationUrlResponse,
  CallbackFields,
  IdentityIdParams,
  IdentityListSchema,
  IdentitySchema,
  IdTokenBody,
  identityUrl,
  LinkBody,
  LinkParams,
  ProviderListSchema,
  ProviderParams,
  StartQuery,
  toIdentity,
} from './identity-schemas.ts';
import { identitiesOf, identityOf, unlinkIdentity } from './identity-service.ts';
import { requestLanguage } from '../../http/error-language.ts';
import { completeWebFlow, NOT_SIGNED_IN, signInWithIdToken, startLinking, startWebFlow } from './identity-sign-in.ts';
import { bindSignInBrowser, signInBrowserOf } from './sign-in-browser.ts';
import { nonFieldError } from '../../errors.ts';
import { LoginResponse } from '../login/login-schemas.ts';
import { originOf } from '../sessions/session-origin.ts';

const tags = ['identities'];

const Redirect = Type.Null({ description: 'Location: where the browser goes next' });

export function registerIdentityRoutes(app: App, ctx: AppContext, passwordChecks: PasswordCheckThrottle): void {
  // Each one writes a row (a flow, a used token) or spends a code: counted per IP, together.
  const limited = perIpRateLimit(ctx, ctx.config.rateLimits.providerSignInPerIp, 'provider-sign-in');
  app.get(
    '/auth/providers/',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'The providers people may sign in with here (OIDC_PROVIDERS), in the operator’s order',
        security: [],
        operationId: 'listSignInProviders',
        response: { 200: ProviderListSchema, ...errors() },
      },
    },
    () => ctx.oidc.list().map((provider) => ({ name: provider.settings.name, label: provider.settings.label })),
  );

  app.get(
    '/auth/oidc/:name/start/',
    {
      config: { auth: 'none', rateLimit: limited },
      schema: {
        tags,
        summary:
          "Start signing in with the provider in a browser: 302 to the provider's page (state, nonce, PKCE S256), and the cookie __Host-sign-in-browser that the callback and the login code will need",
        security: [],
        params: ProviderParams,
        querystring: StartQuery,
        operationId: 'startProviderSignIn',
        response: { 302: Redirect, ...errors({ invalid: true, notFound: true, rateLimited: true }) },
      },
    },
    async (request, reply) =>
      reply.redirect(await startWebFlow(ctx, request.params.name, request.query.redirect, null, bindSignInBrowser(request, reply)), 302),
  );

  const callback = {
    config: { auth: 'none' as const },
    schema: {
      tags,
      security: [],
      params: ProviderParams,
      response: { 302: Redirect, ...errors({ invalid: true, notFound: true }) },
    },
  };
  app.get(
    '/auth/oidc/:name/callback/',
    {
      ...callback,
      schema: {
        ...callback.schema,
        summary:
          "The provider's answer: checked (state, nonce, issuer, audience, expiry), then 302 to the web client with a one-time login code (or the reason it failed); 400 when it names no flow under way in this browser (its __Host-sign-in-browser cookie)",
        querystring: CallbackFields,
        operationId: 'completeProviderSignIn',
      },
    },
    async (request, reply) =>
      reply.redirect(
        await completeWebFlow(
          ctx,
          request.params.name,
          new URLSearchParams(request.query as Record<string, string>),
          signInBrowserOf(request),
          requestLanguage(request, ctx.config),
        ),
        302,
      ),
  );

  // Apple's form_post: the same answer as form fields, posted from Apple's page. A cross-site
  // POST carries no SameSite=Lax cookie, so the browser is sent on to the GET callback with
  // the same fields (303): a top-level GET carries it. Its parser is this route's alone.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, text, done) =>
      done(null, Object.fromEntries(new URLSearchParams(text as string))),
    );
    scope.post(
      '/auth/oidc/:name/callback/',
      {
        config: { auth: 'none' },
        schema: {
          tags,
          security: [],
          params: ProviderParams,
          summary:
            'The same answer as a form POST (Apple’s response_mode=form_post): 303 to the GET callback with the same fields, which the browser sends with its cookie',
          body: CallbackFields,
          consumes: ['application/x-www-form-urlencoded'],
          response: { 303: Redirect, ...errors({ body: true, notFound: true }) },
          operationId: 'completeProviderSignInByForm',
        },
      },
      async (request, reply) => {
        const name = (request.params as { name: string }).name;
        const provider = ctx.oidc.named(name);
        const fields = new URLSearchParams(request.body as Record<string, string>);
        return reply.redirect(`${provider.redirectUri}?${fields}`, 303);
      },
    );
  });

  app.post(
    '/auth/oidc/:name/token/',
    {
      // The account was deleted between finding the identity and opening the session.
      config: { auth: 'none', rateLimit: limited, accountGone: () => nonFieldError(NOT_SIGNED_IN) },
      schema: {
        tags,
        summary:
          "Sign in from an app with the ID token of the platform's own sign-in (checked against the provider's keys, issuer, client ids, expiry, nonce; each works once): the answers of POST /auth/login/",
        security: [],
        params: ProviderParams,
        body: IdTokenBody,
        operationId: 'signInWithIdToken',
        response: { 200: LoginResponse, ...errors({ body: true, notFound: true, rateLimited: true }) },
      },
    },
    (request) => signInWithIdToken(ctx, request.params.name, request.body, originOf(request), requestLanguage(request, ctx.config)),
  );

  app.post(
    '/auth/oidc/apple/notifications/',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary:
          "Apple's signed server-to-server events: consent-revoked, account-delete, email-disabled, email-enabled (idempotent; 404 when Apple is not configured)",
        security: [],
        body: AppleNotificationBody,
        operationId: 'receiveAppleNotification',
        response: { 200: Type.Object({}), ...errors({ body: true, notFound: true }) },
      },
    },
    async (request) => {
      await receiveAppleNotification(ctx, request.body.payload);
      return {};
    },
  );

  app.get(
    '/account/identities/',
    {
      schema: {
        tags,
        summary: 'The providers linked to the caller’s account',
        operationId: 'listIdentities',
        response: { 200: IdentityListSchema, ...errors({ auth: true }) },
      },
    },
    async (request) => (await identitiesOf(ctx, callerOf(request).accountId)).map((row) => toIdentity(ctx, row)),
  );

  app.post(
    '/account/identities/:id/',
    {
      // The password check shares change-password's per-IP limit, as adding a passkey does.
      config: { rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.changePassword) },
      schema: {
        tags,
        summary:
          'Link a provider, with the password again (an account without one: a session opened within 5 minutes); the account’s address is told. {redirect} → the URL to send the browser to (the web flow, ending in a link), or an app’s {id_token, nonce?, code?} → 201 the identity',
        params: LinkParams,
        body: LinkBody,
        operationId: 'linkIdentity',
        response: {
          200: AuthorizationUrlResponse,
          201: IdentitySchema,
          ...errors({ auth: true, body: true, notFound: true, rateLimited: true }),
        },
      },
    },
    async (request, reply) => {
      const browser = 'redirect' in request.body ? bindSignInBrowser(request, reply) : '';
      const linking = await startLinking(ctx, passwordChecks, callerOf(request), request.params.id, request.body, browser);
      if ('authorizationUrl' in linking) return { authorization_url: linking.authorizationUrl };
      return reply.code(201).header('Location', identityUrl(ctx, linking.identity.id)).send(toIdentity(ctx, linking.identity));
    },
  );

  app.get(
    '/account/identities/:id/',
    {
      schema: {
        tags,
        summary: 'One of the providers linked to the caller’s account',
        params: IdentityIdParams,
        operationId: 'getIdentity',
        response: { 200: IdentitySchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    async (request) => toIdentity(ctx, await identityOf(ctx, callerOf(request).accountId, parseId(request.params.id))),
  );

  app.delete(
    '/account/identities/:id/',
    {
      schema: {
        tags,
        summary: 'Unlink a provider (409 when it is the last way in: no password, no other identity, no passkey)',
        params: IdentityIdParams,
        operationId: 'deleteIdentity',
        response: {
          204: Type.Null(),
          ...errors({
            auth: true,
            notFound: true,
            conflict: 'It is the last way into the account: no password, no other identity, no passkey',
          }),
        },
      },
    },
    async (request, reply) => {
      await unlinkIdentity(ctx, callerOf(request).accountId, parseId(request.params.id), callerOf(request).via);
      return reply.code(204).send(null);
    },
  );
}
