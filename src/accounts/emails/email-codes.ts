// E-mailed codes (docs/accounts.md#codes-by-e-mail): made beside each verification and reset
// key and for signing in by e-mail; 10 minutes, once, five tries, the newest of a kind for an
// address the only one alive. A wrong, spent, expired or replaced code and an address without
// one get the same answer, so the answer never says whether the address exists.
import type { Kysely } from 'kysely';
import { canonicalEmailCode, emailCodeHash, newEmailCode, sameEmailCodeHash } from '../../auth/email-codes.ts';
import type { AppContext } from '../../context.ts';
import type { Database, EmailCodeKind } from '../../db/schema.ts';
import { fieldError } from '../../errors.ts';
import { countEmailCodeTry, type EmailCodeRow, replaceEmailCode } from './email-code-queries.ts';

export const EMAIL_CODE_TTL_MS = 10 * 60_000;
export const EMAIL_CODE_MAX_TRIES = 5;

export const WRONG_EMAIL_CODE = 'emailCodes.wrong';

/** Compared with when there is no code to try, so that an answer takes as long either way. */
const NO_CODE_HASH = '0'.repeat(64);

/** Makes the address's new code of `kind` (ending the older one) in the caller's transaction; returns it for the e-mail. */
export async function issueEmailCode(
  ctx: AppContext,
  trx: Kysely<Database>,
  kind: EmailCodeKind,
  address: { id: number; account_id: number; email: string },
): Promise<string> {
  const code = newEmailCode();
  const now = ctx.clock.now();
  await replaceEmailCode(trx, {
    kind,
    accountId: address.account_id,
    addressId: address.id,
    email: address.email,
    codeHash: emailCodeHash(ctx.secrets.emailCodes, kind, address.email, code),
    now,
    expiresAt: now + EMAIL_CODE_TTL_MS,
  });
  return code;
}

/**
 * Judges a code typed for `email`: counts the try first, then compares. Returns the live code
 * when right (the caller spends it with what it authorises); 400 under `email_code` otherwise.
 */
export async function checkEmailCode(ctx: AppContext, kind: EmailCodeKind, email: string, input: string): Promise<EmailCodeRow> {
  const code = canonicalEmailCode(input);
  if (code === null) throw fieldError('email_code', WRONG_EMAIL_CODE);
  const row = await countEmailCodeTry(ctx.db.kysely, kind, email, EMAIL_CODE_MAX_TRIES, ctx.clock.now());
  const right = sameEmailCodeHash(row?.code_hash ?? NO_CODE_HASH, emailCodeHash(ctx.secrets.emailCodes, kind, email, code));
  if (!row || !right) throw fieldError('email_code', WRONG_EMAIL_CODE);
  return row;
}
