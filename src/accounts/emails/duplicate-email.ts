// The unique index on email_addresses.email_lower is what really keeps one address to one
// account (two registrations racing both pass the check before the insert). Its violation,
// as SQLite and PostgreSQL each report it, becomes the ordinary "address in use" 400.
import type { Db, UniqueIndex } from '../../db/database.ts';
import { fieldError, type DomainError } from '../../errors.ts';

export const EMAIL_IN_USE = 'emails.inUse';

export function emailInUse(): DomainError {
  return fieldError('email', EMAIL_IN_USE);
}

const EMAIL_INDEX: UniqueIndex = { name: 'email_addresses_email_lower_key', columns: 'email_addresses.email_lower' };

export function isDuplicateEmailError(db: Db, error: unknown): boolean {
  return db.isUniqueViolation(error, EMAIL_INDEX);
}
