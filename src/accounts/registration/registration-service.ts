// Registration (docs/accounts.md): the account, its primary unverified address and the
// verification e-mail, in one transaction. It does not log in.
import { passwordProblems } from '../../auth/password-rules.ts';
import { hashPassword } from '../../auth/passwords.ts';
import type { AppContext } from '../../context.ts';
import { invalid, type FieldErrors } from '../../errors.ts';
import { queueMemberSync } from '../../mailchimp/queue-member-sync.ts';
import { insertAccount } from '../core/account-queries.ts';
import { EMAIL_IN_USE, emailInUse, isDuplicateEmailError } from '../emails/duplicate-email.ts';
import { emailTaken, insertAddress } from '../emails/email-address-queries.ts';
import { sendVerificationKey } from '../emails/email-keys.ts';
import { NOOP_ACTION } from '../emails/email-schemas.ts';
import type { Account } from '../core/profile-schemas.ts';
import { releaseExpiredHold } from '../emails/unverified-holds.ts';
import { queueAccountEvent } from '../../webhooks/webhook-events.ts';
import type { Language } from '../../i18n/languages.ts';

export interface Registration {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  /** The account's language: asked for, or negotiated from the request. */
  language: Language;
}

export async function registerAccount(ctx: AppContext, input: Registration): Promise<Account> {
  const errors: FieldErrors = {};
  await releaseExpiredHold(ctx.db.kysely, input.email, ctx.clock.now() - ctx.config.unverifiedAccountTtlMs);
  if (await emailTaken(ctx.db.kysely, input.email)) errors.email = [EMAIL_IN_USE];
  const problems = await passwordProblems(input.password, { email: input.email, firstName: input.firstName, lastName: input.lastName });
  if (problems.length > 0) errors.password = problems;
  if (Object.keys(errors).length > 0) throw invalid(errors);

  const passwordHash = await hashPassword(input.password);
  let accountId: number;
  try {
    accountId = await ctx.db.transaction(async (trx) => {
      const now = ctx.clock.now();
      const id = await insertAccount(trx, {
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash,
        language: input.language,
        now,
      });
      const address = await insertAddress(trx, { accountId: id, email: input.email, primary: true, verifiedAction: NOOP_ACTION, now });
      await sendVerificationKey(ctx, trx, address);
      await queueAccountEvent(ctx, trx, 'account.created', id);
      await queueMemberSync(ctx, trx, id, {
        previousEmail: input.email,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
      });
      return id;
    });
  } catch (error) {
    // Another registration of the same address committed between the check and the insert.
    if (isDuplicateEmailError(ctx.db, error)) throw emailInUse();
    throw error;
  }
  ctx.outbox.wake();
  return { id: accountId, email: input.email, first_name: input.firstName, last_name: input.lastName, language: input.language };
}
