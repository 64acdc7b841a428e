// /admin/… (docs/operators.md): the operators' API. Every route is 'hidden' behind the operator
// gate (operator-gate.ts): to anyone but an operator it answers as an unknown path does.
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { invalid, message } from '../errors.ts';
import { errors } from '../http/error-schemas.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import {
  AccountIdParams,
  ActionBody,
  AdminAccountDetailSchema,
  AdminAccountListSchema,
  AuditListSchema,
  AuditQuery,
  FindAccountsQuery,
  OutboxIdParams,
  OutboxViewSchema,
} from './admin-schemas.ts';
import {
  auditList,
  deleteAccountFor,
  disableAccount,
  enableAccount,
  endSessions,
  findAccounts,
  viewAccount,
  MAX_AUDIT_RECORDS,
  outboxView,
  resendVerifications,
  retryOutboxMessage,
  turnOffSecondFactor,
} from './admin-service.ts';
import { operatorGate, operatorOf } from './operator-gate.ts';

const tags = ['operators'];
const FORBIDDEN =
  'The caller is an operator whose session was not opened with two factors (the password and a TOTP or recovery code, or a passkey), or whose account has no second factor: sign in again with one';
const NOT_FOUND = { notFound: true } as const;

function auditLimit(raw: string | undefined): number {
  if (raw === undefined) return 100;
  const limit = /^\d{1,3}$/.test(raw) ? Number(raw) : 0;
  if (limit < 1 || limit > MAX_AUDIT_RECORDS) throw invalid({ limit: [message('validation.wholeNumberUpTo', { max: MAX_AUDIT_RECORDS })] });
  return limit;
}

export function registerAdminRoutes(app: App, ctx: AppContext): void {
  const config = { auth: 'hidden' as const };
  const onRequest = operatorGate(ctx);
  const actor = (request: Parameters<typeof operatorOf>[0]) => ({ via: 'api' as const, operatorId: operatorOf(request) });
  const reasonOf = (body: ActionBody | undefined) => body?.reason ?? null;

  app.get(
    '/admin/accounts/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Operators: at most 50 accounts, by id, with an address containing the text (any case)',
        querystring: FindAccountsQuery,
        operationId: 'adminFindAccounts',
        response: { 200: AdminAccountListSchema, ...errors({ invalid: true, forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    (request) => findAccounts(ctx, actor(request), request.query.email ?? ''),
  );

  app.get(
    '/admin/accounts/:id/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: "Operators: one account's standing and addresses (never its personal data)",
        params: AccountIdParams,
        operationId: 'adminGetAccount',
        response: { 200: AdminAccountDetailSchema, ...errors({ forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    (request) => viewAccount(ctx, actor(request), parseId(request.params.id)),
  );

  const accountAction = (
    path: string,
    summary: string,
    operationId: string,
    act: (accountId: number, request: Parameters<typeof operatorOf>[0], reason: string | null) => Promise<unknown>,
    answer: 'account' | 'none',
  ) =>
    app.post(
      `/admin/accounts/:id/${path}/`,
      {
        config,
        onRequest,
        schema: {
          tags,
          summary,
          params: AccountIdParams,
          body: ActionBody,
          operationId,
          response: {
            ...(answer === 'account' ? { 200: AdminAccountDetailSchema } : { 204: Type.Null() }),
            ...errors({ body: true, forbidden: FORBIDDEN, ...NOT_FOUND }),
          },
        },
      },
      async (request, reply) => {
        const result = await act(parseId(request.params.id), request, reasonOf(request.body));
        return answer === 'account' ? result : reply.code(204).send(null);
      },
    );

  accountAction(
    'disable',
    'Operators: disable the account: its tokens answer 401 from the next request, and its sign-ins are refused',
    'adminDisableAccount',
    (id, request, reason) => disableAccount(ctx, actor(request), id, reason),
    'account',
  );
  accountAction(
    'enable',
    'Operators: enable a disabled account again',
    'adminEnableAccount',
    (id, request, reason) => enableAccount(ctx, actor(request), id, reason),
    'account',
  );
  accountAction(
    'mfa-off',
    'Operators: remove the second factor (TOTP, recovery codes, passkeys); the person is told by e-mail',
    'adminTurnOffSecondFactor',
    (id, request, reason) => turnOffSecondFactor(ctx, actor(request), id, reason),
    'account',
  );
  accountAction(
    'resend-verification',
    'Operators: e-mail a fresh verification key to each unverified address of the account',
    'adminResendVerification',
    (id, request, reason) => resendVerifications(ctx, actor(request), id, reason),
    'none',
  );
  accountAction(
    'sessions-end',
    'Operators: end every session of the account',
    'adminEndSessions',
    (id, request, reason) => endSessions(ctx, actor(request), id, reason),
    'none',
  );

  app.delete(
    '/admin/accounts/:id/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Operators: delete the account and everything it holds, as its owner would (a last notice goes to its primary address)',
        params: AccountIdParams,
        body: ActionBody,
        operationId: 'adminDeleteAccount',
        response: { 204: Type.Null(), ...errors({ body: true, forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    async (request, reply) => {
      await deleteAccountFor(ctx, actor(request), parseId(request.params.id), reasonOf(request.body));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/admin/outbox/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Operators: the outbox: counts, and the failed and pending messages (no recipient, no body)',
        operationId: 'adminOutbox',
        response: { 200: OutboxViewSchema, ...errors({ forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    () => outboxView(ctx),
  );

  app.post(
    '/admin/outbox/:id/retry/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Operators: have a message tried at once (a failed one or one waiting for its next attempt)',
        description:
          'A failed message goes back in the queue with a fresh attempt budget; a pending one waiting for its next attempt after a failed one is made due now, its attempts kept; a pending one already due is left as it is. A delivered message: 400.',
        params: OutboxIdParams,
        body: ActionBody,
        operationId: 'adminRetryOutboxMessage',
        response: { 204: Type.Null(), ...errors({ body: true, forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    async (request, reply) => {
      await retryOutboxMessage(ctx, actor(request), parseId(request.params.id), reasonOf(request.body));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/admin/audit/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: "Operators: the operators' actions, newest first (kept a year)",
        querystring: AuditQuery,
        operationId: 'adminAudit',
        response: { 200: AuditListSchema, ...errors({ invalid: true, forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    (request) => auditList(ctx, auditLimit(request.query.limit)),
  );
}
