// Who may use the operators' routes (docs/operators.md): an operator holding a second factor (TOTP
// or a passkey). To everyone else, anonymous or with a bad token included, the routes answer
// as a path nobody serves does (404), before their input is even looked at; an operator
// without a second factor is told to turn one on (403). Runs on every /admin/ request, after
// the token check (token-auth.ts, 'hidden'): one small query, on these routes only.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { forbidden, notFound } from '../errors.ts';
import { operatorStanding } from './admin-queries.ts';

export const SECOND_FACTOR_NEEDED =
  'Operators need a second factor: turn on two-step sign-in or add a passkey in your settings, then try again.';

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
    request.operatorId = caller.accountId;
  };
}

/** The operator of a request the gate let through. */
export function operatorOf(request: FastifyRequest): number {
  if (request.operatorId === undefined) throw notFound();
  return request.operatorId;
}
