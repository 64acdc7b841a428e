// POST /account/verify-email/ (docs/accounts.md): the key from the e-mail plus the password of the
// address's owner, so that a mistyped address cannot be verified by a stranger. A wrong
// password leaves the key usable; a key works once.
import type { AppContext } from '../../context.ts';
import { fieldError, nonFieldError, notFound } from '../../errors.ts';
import { queueMemberSync } from '../../mailchimp/queue-member-sync.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import { lockAccount } from '../core/account-lock.ts';
import { findAccount } from '../core/account-queries.ts';
import { findAddress, markAddressVerified, replacePrimary } from './email-address-queries.ts';
import { REPLACE_PRIMARY_ACTION } from './email-schemas.ts';
import { queueAccountEvent, queueFirstVerification } from '../../webhooks/webhook-events.ts';
import { findVerificationKey, useAllVerificationKeys, useVerificationKey } from './key-queries.ts';

export const INVALID_VERIFICATION_KEY = 'This verification key is invalid or has already been used.';
export const EXPIRED_VERIFICATION_KEY = 'This verification key has expired. Ask for a new verification e-mail.';

export async function verifyEmail(ctx: AppContext, key: string, password: string): Promise<void> {
  const found = await findVerificationKey(ctx.db.kysely, key);
  if (!found || found.used_at !== null) throw fieldError('key', INVALID_VERIFICATION_KEY);
  if (found.expires_at <= ctx.clock.now()) throw fieldError('key', EXPIRED_VERIFICATION_KEY);
  if (!(await verifyPassword(found.password_hash, password))) throw nonFieldError('The password is incorrect.');

  await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, found.account_id);
    const now = ctx.clock.now();
    // Another request used the key (or its address was deleted) since it was read.
    if (!(await useVerificationKey(trx, found.key_id, now))) throw fieldError('key', INVALID_VERIFICATION_KEY);
    const address = await findAddress(trx, found.account_id, found.address_id);
    if (!address) throw notFound();
    await queueFirstVerification(ctx, trx, found.account_id);
    await markAddressVerified(trx, address.id);
    await useAllVerificationKeys(trx, address.id, now);
    if (address.verified_action === REPLACE_PRIMARY_ACTION && address.is_primary !== 1) {
      const account = await findAccount(trx, found.account_id);
      if (!account) throw notFound();
      await replacePrimary(trx, found.account_id, address.id);
      await queueAccountEvent(ctx, trx, 'account.email_changed', found.account_id);
      await queueMemberSync(ctx, trx, found.account_id, {
        previousEmail: account.email,
        email: address.email,
        firstName: account.first_name,
        lastName: account.last_name,
      });
    }
  });
  ctx.outbox.wake();
}
