// The e-mail address object of docs/accounts.md, the same in lists and details.
import type { Static } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { AddressRow } from './email-address-queries.ts';
import type { EmailAddressSchema } from './email-schemas.ts';

export function emailAddressUrl(ctx: AppContext, id: number): string {
  return `${ctx.config.publicUrl}/account/emails/${id}/`;
}

export function toEmailAddress(ctx: AppContext, row: AddressRow): Static<typeof EmailAddressSchema> {
  return {
    id: row.id,
    url: emailAddressUrl(ctx, row.id),
    email: row.email,
    verified: row.verified === 1,
    verified_action: row.verified_action,
    primary: row.is_primary === 1,
  };
}
