// Why the API stopped taking a token, for the sign-in page to say. The API's 401 tells an
// expired token (`WWW-Authenticate: Token error="token_expired"`) from one that is gone: ended
// from the sessions page or by signing out everywhere, by a password change, or with every
// session of the account when an operator disabled it — those it does not tell apart, and a
// disabled account's own sign-in answer says that it is disabled. The header, not the
// sentence, tells them apart: the sentence is in the reader's language.
import { t } from '../i18n/language.ts';

export type SessionEnd = 'expired' | 'ended';

/** Why a 401 refused the token, from its WWW-Authenticate challenge. */
export function sessionEndOf(response: Response): SessionEnd {
  const challenge = response.headers.get('www-authenticate') ?? '';
  return /\berror="?token_expired"?/i.test(challenge) ? 'expired' : 'ended';
}

/** The sentence the sign-in page shows for it, in the current language. */
export function sessionEndSentence(end: SessionEnd): string {
  return end === 'expired' ? t('session.expired') : t('session.ended');
}
