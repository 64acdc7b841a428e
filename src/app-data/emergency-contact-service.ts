// Emergency contacts (docs/app-data.md).
import type { AppContext } from '../context.ts';
import { requireAppUser, type Access } from './kernel/access.ts';
import { notFound } from '../errors.ts';
import {
  countEmergencyContacts,
  deleteEmergencyContact,
  findEmergencyContact,
  insertEmergencyContact,
  listEmergencyContacts,
  updateEmergencyContact,
  type EmergencyContactValues,
} from './emergency-contact-queries.ts';
import {
  toEmergencyContact,
  type EmergencyContact,
  type EmergencyContactChanges,
  type EmergencyContactInput,
} from './emergency-contact-schemas.ts';
import { ownedAppUser, writeOwned } from './kernel/owned-write.ts';
import type { WriteTerms } from './kernel/write-terms.ts';
import { enforceQuota } from './kernel/quotas.ts';

const WRITABLE_FIELDS = ['name', 'relation', 'phone_number', 'alt_phone_number', 'email'] as const;

/** The writable fields the body gives: any other field (unknown, read-only, a column such as account_id) is ignored. */
function definedValues(changes: EmergencyContactChanges): EmergencyContactValues {
  return Object.fromEntries(WRITABLE_FIELDS.filter((field) => changes[field] !== undefined).map((field) => [field, changes[field]]));
}

export async function listUserEmergencyContacts(ctx: AppContext, access: Access, appUserId: number): Promise<EmergencyContact[]> {
  const { accountId } = access;
  requireAppUser(access, appUserId);
  const rows = await listEmergencyContacts(ctx.db.kysely, accountId, appUserId);
  return rows.map((row) => toEmergencyContact(ctx, row));
}

export async function getEmergencyContact(ctx: AppContext, access: Access, id: number): Promise<EmergencyContact> {
  const { accountId } = access;
  const row = await findEmergencyContact(ctx.db.kysely, accountId, id);
  if (!row) throw notFound();
  return toEmergencyContact(ctx, row);
}

export async function createEmergencyContact(
  ctx: AppContext,
  access: Access,
  appUserId: number,
  input: EmergencyContactInput,
  terms: WriteTerms,
): Promise<EmergencyContact> {
  const { accountId } = access;
  const row = await writeOwned(ctx, terms, ownedAppUser(access, appUserId), async (trx) => {
    enforceQuota(
      await countEmergencyContacts(trx, accountId, appUserId),
      1,
      ctx.config.quotas.emergencyContactsPerUser,
      'quotas.emergencyContactsPerUser',
    );
    return insertEmergencyContact(trx, accountId, appUserId, {
      name: input.name,
      relation: input.relation ?? '',
      phone_number: input.phone_number,
      alt_phone_number: input.alt_phone_number ?? '',
      email: input.email ?? '',
    });
  });
  return toEmergencyContact(ctx, row);
}

export async function changeEmergencyContact(
  ctx: AppContext,
  access: Access,
  id: number,
  changes: EmergencyContactChanges,
  terms: WriteTerms,
): Promise<EmergencyContact> {
  const { accountId } = access;
  const values = definedValues(changes);
  const row = await writeOwned(
    ctx,
    terms,
    (trx) => findEmergencyContact(trx, accountId, id),
    async (trx, contact) => (Object.keys(values).length === 0 ? contact : updateEmergencyContact(trx, accountId, id, values)),
  );
  if (!row) throw notFound();
  return toEmergencyContact(ctx, row);
}

export async function removeEmergencyContact(ctx: AppContext, access: Access, id: number, terms: WriteTerms): Promise<void> {
  const { accountId } = access;
  await writeOwned(
    ctx,
    terms,
    (trx) => findEmergencyContact(trx, accountId, id),
    (trx) => deleteEmergencyContact(trx, accountId, id),
  );
}
