// What the sign-in page says to someone whose token the API stopped taking. The API's 401 tells
// an expired token ("Token has expired.") from one that is gone ("Invalid token."): ended from
// the sessions page or by signing out everywhere, by a password change, or with every session
// of the account when an operator disabled it — those it does not tell apart, and a disabled
// account's own sign-in answer says that it is disabled.
export const SESSION_EXPIRED = 'You were signed out after a while without using the service. Sign in again.';
export const SESSION_ENDED = 'Your session ended; sign in again.';

/** The sentence for a 401's `detail`. */
export function sessionEndedReason(detail: unknown): string {
  return detail === 'Token has expired.' ? SESSION_EXPIRED : SESSION_ENDED;
}
