// Who may use the operators' routes (docs/operators.md): an operator signed in with two factors —
// the password or a provider and then a TOTP or recovery code, or a passkey — in the session
// the request comes with, and whose account still holds a second factor. Asked of the
// session, not only of the account: an account with a passkey also signs in with its
// password alone, and a factor added within a session does not make that session stronger,
// so a stolen password opens no operator's session. To everyone else, anonymous or with a bad
// token included, the routes answer as a path nobody serves does (404), before their input is
// even looked at; an operator is told in a sentence what to do (403). Runs on every /admin/
// request, after the token check (token-auth.ts, 'hidden', which reads how the session was
// opened with the token): one small query, on these routes only.
import type { FastifyRequest } from 'fastify';
import { openedWithTwoFactors } from '../auth/sign-in-methods.ts';
import type { AppContext } from '../context.ts';
import { forbidden, notFound } from '../errors.ts';
import { operatorStanding } from './admin-queries.ts';

export const SECOND_FACTOR_NEEDED = 'admin.secondFactorNeeded';
export const SIGN_IN_WITH_SECOND_FACTOR = 'admin.signInWithSecondFactor';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator making a request to an operators' route, once the gate let it through. */
    operatorId?: number;
  }
}

export function operatorGate(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const caller = request.caller;
    if (!caller) throw notFound();
    const standing = await operatorStanding(ctx.db.kysely, caller.accountId);
    if (!standing?.operator) throw notFound();
    if (!standing.secondFactor) throw forbidden(SECOND_FACTOR_NEEDED);
    if (!openedWithTwoFactors(caller.signInMethod)) throw forbidden(SIGN_IN_WITH_SECOND_FACTOR);
    request.operatorId = caller.accountId;
  };
}

/** The operator of a request the gate let through. */
export function operatorOf(request: FastifyRequest): number {
  if (request.operatorId === undefined) throw notFound();
  return request.operatorId;
}
