// The caller's e-mail addresses (docs/accounts.md): add, make primary, delete, resend the key.
// Each change runs under the account lock (see account-lock.ts).
import type { AppContext } from '../../context.ts';
import { conflict, fieldError, invalid, message, nonFieldError, notFound, type FieldErrors } from '../../errors.ts';
import { queueEmail } from '../../mail/email-delivery.ts';
import { recipientLanguage } from '../../mail/recipient-language.ts';
import { addressAddedMessage } from '../../mail/messages.ts';
import { queueMemberSync } from '../../mailchimp/queue-member-sync.ts';
import { lockAccount } from '../core/account-lock.ts';
import { findAccount } from '../core/account-queries.ts';
import { emailInUse, isDuplicateEmailError } from './duplicate-email.ts';
import {
  countAddresses,
  deleteSecondaryAddress,
  emailTaken,
  findAddress,
  insertAddress,
  movePrimary,
  type AddressRow,
} from './email-address-queries.ts';
import { checkVerificationLimits, sendVerificationKey } from './email-keys.ts';
import { NOOP_ACTION } from './email-schemas.ts';
import { releaseExpiredHold } from './unverified-holds.ts';
import { recordSecurityEvent, type Via } from '../../activity/activity-events.ts';
import { queueAccountEvent } from '../../webhooks/webhook-events.ts';

export interface NewAddress {
  email: string;
  verifiedAction?: number;
  primary?: boolean;
}

/** An address as the security log names it. */
function addressObject(address: { id: number; email: string }) {
  return { type: 'email_address', id: address.id, name: address.email };
}

export async function addAddress(ctx: AppContext, accountId: number, input: NewAddress, via: Via): Promise<AddressRow> {
  if (input.primary === true) throw fieldError('primary', 'emails.newNotPrimary');
  await releaseExpiredHold(ctx.db.kysely, input.email, ctx.clock.now() - ctx.config.unverifiedAccountTtlMs);
  if (await emailTaken(ctx.db.kysely, input.email)) throw emailInUse();
  let address: AddressRow;
  try {
    address = await ctx.db.transaction(async (trx) => {
      await lockAccount(ctx, trx, accountId);
      const account = await findAccount(trx, accountId);
      if (!account) throw notFound();
      const limit = ctx.config.quotas.emailsPerAccount;
      if ((await countAddresses(trx, accountId)) >= limit) {
        throw nonFieldError(message('emails.tooMany', { max: limit }));
      }
      await checkVerificationLimits(ctx, trx, accountId, input.email);
      const row = await insertAddress(trx, {
        accountId,
        email: input.email,
        primary: false,
        verifiedAction: input.verifiedAction ?? NOOP_ACTION,
        now: ctx.clock.now(),
      });
      await sendVerificationKey(ctx, trx, row);
      await queueEmail(
        ctx,
        trx,
        addressAddedMessage(await recipientLanguage(ctx.config, trx, accountId), account.email, row.email),
        accountId,
      );
      await recordSecurityEvent(trx, accountId, ctx.clock.now(), 'address_added', via, { object: addressObject(row) });
      return row;
    });
  } catch (error) {
    if (isDuplicateEmailError(ctx.db, error)) throw emailInUse();
    throw error;
  }
  ctx.outbox.wake();
  return address;
}

export async function getAddress(ctx: AppContext, accountId: number, addressId: number): Promise<AddressRow> {
  const address = await findAddress(ctx.db.kysely, accountId, addressId);
  if (!address) throw notFound();
  return address;
}

export interface AddressChanges {
  primary?: boolean;
  email?: string;
  verified_action?: number;
}

/** Only `primary: true` changes anything; `email` and `verified_action` may be sent back unchanged. */
export async function updateAddress(
  ctx: AppContext,
  accountId: number,
  addressId: number,
  changes: AddressChanges,
  via: Via,
): Promise<AddressRow> {
  const address = await getAddress(ctx, accountId, addressId);
  const errors: FieldErrors = {};
  if (changes.email !== undefined && changes.email.toLowerCase() !== address.email.toLowerCase()) {
    errors.email = ['emails.addressFixed'];
  }
  if (changes.verified_action !== undefined && changes.verified_action !== address.verified_action) {
    errors.verified_action = ['emails.verifiedActionFixed'];
  }
  if (changes.primary === true && address.verified !== 1) {
    errors.primary = ['emails.primaryNeedsVerified'];
  }
  if (changes.primary === false && address.is_primary === 1) {
    errors.primary = ['emails.primaryCannotBeUnset'];
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  if (changes.primary !== true || address.is_primary === 1) return address;

  const updated = await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, accountId);
    const current = await findAddress(trx, accountId, addressId);
    if (!current) throw notFound();
    const account = await findAccount(trx, accountId);
    if (!account) throw notFound();
    if (current.is_primary === 1) return current;
    await movePrimary(trx, accountId, addressId);
    await queueAccountEvent(ctx, trx, 'account.email_changed', accountId);
    await queueMemberSync(ctx, trx, accountId, {
      previousEmail: account.email,
      email: current.email,
      firstName: account.first_name,
      lastName: account.last_name,
    });
    await recordSecurityEvent(trx, accountId, ctx.clock.now(), 'address_made_primary', via, { object: addressObject(current) });
    return { ...current, is_primary: 1 as const };
  });
  ctx.outbox.wake();
  return updated;
}

export async function deleteAddress(ctx: AppContext, accountId: number, addressId: number, via: Via): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, accountId);
    const address = await findAddress(trx, accountId, addressId);
    if (!address) throw notFound();
    if (address.is_primary === 1) throw conflict('emails.primaryCannotBeDeleted');
    await deleteSecondaryAddress(trx, accountId, addressId);
    await recordSecurityEvent(trx, accountId, ctx.clock.now(), 'address_deleted', via, { object: addressObject(address) });
  });
}

/** A fresh verification key for an unverified address; older keys keep working until they expire. */
export async function resendVerification(ctx: AppContext, accountId: number, addressId: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, accountId);
    const address = await findAddress(trx, accountId, addressId);
    if (!address) throw notFound();
    if (address.verified === 1) throw nonFieldError('emails.alreadyVerified');
    await checkVerificationLimits(ctx, trx, accountId, address.email);
    await sendVerificationKey(ctx, trx, address);
  });
  ctx.outbox.wake();
}
