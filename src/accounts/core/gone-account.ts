// A request acting for an account that a concurrent deletion removed while it ran: the
// insert it makes for the account (a session, a pending MFA secret, a key, an address)
// fails on its foreign key. Such a request is answered here, for every route that writes, as
// it would have been answered a moment later, rather than in each service (a read inserts
// nothing; wrapping its handler too cost a cached read a fifth of its CPU):
//
// - an authenticated request: 401, as for a dead token (its token went with the account);
// - a route that finds its account from what the body says (login, the reset request) declares
//   its answer in its config, `accountGone`: login's is its wrong-credentials 400.
//
// A foreign-key violation while the caller's account is still there is a bug, and stays a 500.
// Personal-data writes answer their own (owned-write.ts: the parent is gone, 404).
import type { FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { AppContext } from '../../context.ts';
import { DomainError, unauthenticated } from '../../errors.ts';
import { INVALID_TOKEN } from '../../auth/token-auth.ts';
import type { App } from '../../http/types.ts';
import { findAccount } from './account-queries.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The answer when the account the request named is gone: the body to send, or the flow's DomainError. */
    accountGone?: (request: FastifyRequest) => unknown;
  }
}

async function answerGoneAccount(ctx: AppContext, request: FastifyRequest, error: unknown): Promise<unknown> {
  const caller = request.caller;
  if (caller) {
    if (await findAccount(ctx.db.kysely, caller.accountId)) throw error;
    throw unauthenticated(INVALID_TOKEN);
  }
  const accountGone = request.routeOptions.config.accountGone;
  if (!accountGone) throw error;
  const answer = accountGone(request);
  if (answer instanceof DomainError) throw answer;
  return answer;
}

/** Before the routes: wraps each handler registered after it. */
export function registerGoneAccountAnswers(app: App, ctx: AppContext): void {
  app.addHook('onRoute', (route) => {
    // Reads insert nothing, so no foreign key of theirs can fail: the busiest routes stay unwrapped.
    const methods = [route.method].flat();
    if (methods.every((method) => method === 'GET' || method === 'HEAD')) return;
    const handler = route.handler as RouteHandlerMethod;
    // A handler that answers without a promise is left as it is: no query of its can fail here.
    route.handler = function (this: unknown, request, reply) {
      const result: unknown = handler.call(this as never, request, reply);
      if (!(result instanceof Promise)) return result;
      return result.catch((error: unknown) => {
        if (!ctx.db.isForeignKeyViolation(error)) throw error;
        return answerGoneAccount(ctx, request, error);
      });
    } as RouteHandlerMethod;
  });
}
