// Where the verification e-mail is when the service writes e-mails to files: the service
// marks its pages with <meta name="dev-inbox"> when the development inbox is on
// (src/http/web-client.ts, src/mail/dev-inbox.ts).

import { t } from '../i18n/language.ts';

/** On the sign-up page: a link to the development inbox, when it is on. */
export function DevInboxHint() {
  const inbox = document.querySelector('meta[name="dev-inbox"]')?.getAttribute('content');
  if (!inbox) return null;
  return (
    <p class="note">
      {t('devInbox.hintBefore')} <a href={inbox}>{t('devInbox.hintLink')}</a>
      {t('devInbox.hintAfter')}
    </p>
  );
}
