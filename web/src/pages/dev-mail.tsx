// The development inbox (src/mail/dev-inbox.ts): with SMTP_URL unset and the service on this
// machine, the e-mails it wrote to files, newest first, their links clickable. Anywhere else
// the service does not serve this page, and its list answers 404.
import { useEffect, useState } from 'preact/hooks';
import { Page, Status } from '../components/page.tsx';
import { useStatusLine } from '../status-line.tsx';
import { formatDateTime, t } from '../i18n/language.ts';

interface DevMail {
  id: string;
  to: string;
  subject: string;
  sent_at: string;
  text: string;
}

const LINK = /(https?:\/\/[^\s<>"]+)/;

/** The e-mail's text with each link an <a>. */
function TextWithLinks({ text }: { text: string }) {
  return <p class="dev-mail-text">{text.split(LINK).map((part, i) => (i % 2 === 1 ? <a href={part}>{part}</a> : part))}</p>;
}

export function DevMailPage() {
  const [mails, setMails] = useState<DevMail[] | undefined>(undefined);
  const [version, setVersion] = useState(0);
  const status = useStatusLine();
  useEffect(() => {
    let current = true;
    status.clear();
    fetch('/dev/mail/messages/').then(
      async (response) => {
        if (!current) return;
        if (response.ok) {
          const list = (await response.json()) as DevMail[];
          setMails(list);
          status.say(t('devMail.count', { count: list.length }));
        } else status.say(t('devMail.off'));
      },
      () => current && status.say(t('devMail.unreachable')),
    );
    return () => {
      current = false;
    };
  }, [version]);
  return (
    <Page title={t('devMail.title')}>
      <p>{t('devMail.intro')}</p>
      <button type="button" onClick={() => setVersion((n) => n + 1)}>
        {t('devMail.refresh')}
      </button>
      <Status />
      {mails && mails.length > 0 && (
        <ol class="cards dev-mail">
          {mails.map((mail) => (
            <li key={mail.id} class="card">
              <article aria-labelledby={`mail-${mail.id}`}>
                <h2 id={`mail-${mail.id}`}>{mail.subject}</h2>
                <p class="muted">
                  {t('devMail.to', { to: mail.to })} <time dateTime={mail.sent_at}>{formatDateTime(mail.sent_at)}</time>
                </p>
                <TextWithLinks text={mail.text} />
              </article>
            </li>
          ))}
        </ol>
      )}
    </Page>
  );
}
