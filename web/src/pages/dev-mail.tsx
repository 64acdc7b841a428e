// The development inbox (src/mail/dev-inbox.ts): with SMTP_URL unset and the service on this
// machine, the e-mails it wrote to files, newest first, their links clickable. Anywhere else
// the service does not serve this page, and its list answers 404.
import { useEffect, useState } from 'preact/hooks';
import { Page, Status } from '../components/page.tsx';
import { useStatusLine } from '../status-line.tsx';

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
          status.say(`${list.length} e-mail${list.length === 1 ? '' : 's'}.`);
        } else status.say('The development inbox is off: it is only there when SMTP_URL is unset and the service listens on this machine.');
      },
      () => current && status.say('The service cannot be reached.'),
    );
    return () => {
      current = false;
    };
  }, [version]);
  return (
    <Page title="Development inbox">
      <p>
        The e-mails this service wrote to files instead of sending them (SMTP_URL is unset), newest first. Open a link to do what the e-mail
        asks.
      </p>
      <button type="button" onClick={() => setVersion((n) => n + 1)}>
        Refresh
      </button>
      <Status />
      {mails && mails.length > 0 && (
        <ol class="cards dev-mail">
          {mails.map((mail) => (
            <li key={mail.id} class="card">
              <article aria-labelledby={`mail-${mail.id}`}>
                <h2 id={`mail-${mail.id}`}>{mail.subject}</h2>
                <p class="muted">
                  To {mail.to}, <time dateTime={mail.sent_at}>{new Date(mail.sent_at).toLocaleString()}</time>
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
