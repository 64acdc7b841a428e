// The unique index on email_addresses.email_lower is what really keeps one address to one
// account (two registrations racing both pass the check before the insert). Its violation,
// as SQLite and PostgreSQL each report it, becomes the ordinary "address in use" 400.
import { type DomainError, fieldError } from '../errors.ts';

export const EMAIL_IN_USE = 'This e-mail address is already in use.';

export function emailInUse(): DomainError {
  return fieldError('email', EMAIL_IN_USE);
}

export function isDuplicateEmailError(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, constraint, message } = error as { code?: unknown; constraint?: unknown; message?: unknown };
  if (code === '23505') return constraint === 'email_addresses_email_lower_key';
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') return typeof message === 'string' && message.includes('email_addresses.email_lower');
  return false;
}
