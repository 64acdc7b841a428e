// The operators' answers (docs/operators.md): an account's standing, never what it keeps.
import { Type, type Static } from 'typebox';
import type { AccountSummaryRow } from './admin-queries.ts';

const iso = (ms: number) => new Date(Number(ms)).toISOString();

export const AdminAccountSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String({ description: 'The primary address' }),
  first_name: Type.String(),
  last_name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  last_sign_in_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'The last sign-in by any way in (null: none recorded)',
  }),
  disabled: Type.Boolean(),
  second_factor: Type.Boolean({ description: 'Two-step sign-in (TOTP) is on, or the account has a passkey' }),
  sessions: Type.Integer({ description: 'How many sessions (tokens) the account has' }),
  is_operator: Type.Boolean(),
});
export type AdminAccount = Static<typeof AdminAccountSchema>;

export const AdminAccountListSchema = Type.Array(AdminAccountSchema);

export const AdminAccountDetailSchema = Type.Object({
  ...AdminAccountSchema.properties,
  email_addresses: Type.Array(Type.Object({ email: Type.String(), verified: Type.Boolean(), primary: Type.Boolean() })),
});
export type AdminAccountDetail = Static<typeof AdminAccountDetailSchema>;

export function toAdminAccount(row: AccountSummaryRow): AdminAccount {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    created_at: iso(row.created_at),
    last_sign_in_at: row.last_sign_in_at === null ? null : iso(row.last_sign_in_at),
    disabled: row.disabled_at !== null,
    second_factor: Number(row.totp_enabled) === 1 || Number(row.passkeys) > 0,
    sessions: Number(row.sessions ?? 0),
    is_operator: Number(row.is_operator) === 1,
  };
}

export const FindAccountsQuery = Type.Object({
  email: Type.Optional(
    Type.String({ maxLength: 254, description: 'Text the addresses contain, in any case; none or empty: the first accounts by id' }),
  ),
});

export const AccountIdParams = Type.Object({ id: Type.String({ description: 'An account id (a positive integer)' }) });

export const OutboxIdParams = Type.Object({ id: Type.String({ description: 'An outbox message id (a positive integer)' }) });

export const REASON_MAX_LENGTH = 500;

/** Each action's body: an optional reason, kept in the audit. The body itself may be left out. */
export const ActionBody = Type.Union(
  [
    Type.Object({ reason: Type.Optional(Type.String({ maxLength: REASON_MAX_LENGTH, description: 'Why, for the audit (optional)' })) }),
    Type.Null(),
  ],
  { description: 'Optional: {"reason": "…"}', examples: [{ reason: 'Asked by the person on 12 March; identity checked by video call' }] },
);
export type ActionBody = Static<typeof ActionBody>;

export const OutboxViewSchema = Type.Object({
  pending: Type.Integer({ description: 'Messages waiting to be delivered, retries included' }),
  failed: Type.Integer({ description: 'Messages given up on: retry them once the cause is fixed' }),
  oldest_pending_seconds: Type.Union([Type.Integer(), Type.Null()], { description: 'Age of the oldest pending message (null: none)' }),
  messages: Type.Array(
    Type.Object({
      id: Type.Integer(),
      kind: Type.String({ description: 'email, mailchimp or media-removal' }),
      state: Type.String({ description: 'pending or failed' }),
      attempts: Type.Integer(),
      last_error: Type.Union([Type.String(), Type.Null()], { description: 'The last delivery error, any e-mail address in it masked' }),
      next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'When a pending message is tried next',
      }),
    }),
    { description: 'The failed and pending messages, newest first (at most 100 of each): no recipient, no body' },
  ),
});
export type OutboxView = Static<typeof OutboxViewSchema>;

export const AuditQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'How many records, newest first: 1 to 500 (default 100)' })),
});

export const AuditListSchema = Type.Array(
  Type.Object({
    id: Type.Integer(),
    at: Type.String({ format: 'date-time' }),
    via: Type.Union([Type.Literal('api'), Type.Literal('cli')]),
    operator: Type.Union([Type.Object({ id: Type.Integer(), email: Type.Union([Type.String(), Type.Null()]) }), Type.Null()], {
      description: 'Who acted through the API (email null once their account is gone); null from the command line',
    }),
    action: Type.String(),
    account_id: Type.Union([Type.Integer(), Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()]),
    search: Type.Union([Type.String(), Type.Null()], { description: "A find's search text; null for every other action" }),
    cli_user: Type.Union([Type.String(), Type.Null()], {
      description:
        'Who ran a command-line action, as `user@host` of the server; null through the API (and for records from before it was kept)',
    }),
  }),
);
export type AuditList = Static<typeof AuditListSchema>;
