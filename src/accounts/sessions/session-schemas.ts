// A session (docs/accounts.md): one login token, shown without its value or hash.
import { Type, type Static } from 'typebox';
import type { SessionRow } from '../../auth/token-queries.ts';

export const SessionSchema = Type.Object({
  id: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.String({ format: 'date-time', description: 'Recorded at most once an hour, so it may lag by up to an hour' }),
  user_agent: Type.Union([Type.String(), Type.Null()], { description: 'The User-Agent of the login, at most 255 characters' }),
  ip_address: Type.Union([Type.String(), Type.Null()], { description: 'The client address of the login, as seen under TRUST_PROXY' }),
  current: Type.Boolean({ description: 'true for the session whose token made this request' }),
  sign_in_method: Type.Union(
    [
      Type.Literal('password'),
      Type.Literal('password+totp'),
      Type.Literal('passkey'),
      Type.Literal('provider'),
      Type.Literal('provider+totp'),
      Type.Literal('email_code'),
      Type.Literal('email_code+totp'),
      Type.Null(),
    ],
    {
      description:
        'How the session was opened: `password`; `password+totp` (then a TOTP or recovery code); `passkey`; `provider` (another provider); `provider+totp`; `email_code` (an e-mailed code); `email_code+totp`. null for a session opened before this was recorded',
    },
  ),
});
export type Session = Static<typeof SessionSchema>;

export const SessionListSchema = Type.Array(SessionSchema);

export const SessionIdParams = Type.Object({ id: Type.String({ description: 'A session id (a positive integer)' }) });

export function toSession(row: SessionRow, currentTokenId: number): Session {
  return {
    id: row.id,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: new Date(row.last_used_at).toISOString(),
    user_agent: row.user_agent,
    ip_address: row.ip_address,
    current: row.id === currentTokenId,
    sign_in_method: row.sign_in_method,
  };
}
