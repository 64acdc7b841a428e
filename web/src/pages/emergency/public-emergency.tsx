// /emergency/:token — the page an emergency link opens (docs/emergency-links.md), for anyone, on any
// phone, without an account: no token is read or sent (public-client.ts), and the frame shows
// no navigation (layout.tsx). It reads the link; when the link has a PIN it asks for it and
// POSTs it; it says plainly when the link is no longer valid (404) or locked after wrong PINs (429,
// for a while, or until its owner sets the PIN again when no Retry-After comes with it).
import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { publicApi } from '../../api/public-client.ts';
import { UNREACHABLE } from '../../api/problems.ts';
import type { PublicEmergencyInfo } from '../../api/types.ts';
import { Field, Form, Submit, text } from '../../components/form.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { EmergencyInfo } from './emergency-info.tsx';
import { t } from '../../i18n/language.ts';
import { useLanguage } from '../../i18n/use-language.ts';

type Shown =
  | { kind: 'loading' }
  | { kind: 'info'; info: PublicEmergencyInfo }
  | { kind: 'pin' }
  | { kind: 'gone' }
  | { kind: 'locked'; minutes: number }
  | { kind: 'stopped' }
  | { kind: 'failed'; message: string };

interface Answer {
  data?: PublicEmergencyInfo;
  error?: unknown;
  response: Response;
}

/** What the page shows for an answer of the API; undefined: a 400 for the PIN form to show. */
function shownFor({ data, error, response }: Answer): Shown | undefined {
  if (response.ok && data) return { kind: 'info', info: data };
  if (response.status === 404) return { kind: 'gone' };
  // No Retry-After: the link takes no PIN until its owner sets it again.
  if (response.status === 429 && response.headers.get('retry-after') === null) return { kind: 'stopped' };
  if (response.status === 429) return { kind: 'locked', minutes: Math.max(1, Math.ceil(Number(response.headers.get('retry-after')) / 60)) };
  if (response.status === 401 && (error as { pin_required?: boolean } | undefined)?.pin_required) return { kind: 'pin' };
  if (response.status === 400) return undefined;
  return failed(response.status);
}

function failed(status: number): Shown {
  return { kind: 'failed', message: t('emergency.failed', { status }) };
}

/** Keeps search engines away from the page, as the API's answers do (X-Robots-Tag). */
function useNoIndex(): void {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

function PinForm({ token, onAnswer }: { token: string; onAnswer(shown: Shown): void }) {
  const action = useAction();
  async function unlock(data: FormData) {
    await action.run(async () => {
      const answer = await publicApi.POST('/public/emergency/{token}/', { params: { path: { token } }, body: { pin: text(data, 'pin') } });
      const shown = shownFor(answer);
      if (shown) onAnswer(shown);
      return answer;
    });
  }
  return (
    <>
      <p>{t('emergency.pinIntro')}</p>
      <Form id="pin" action={action} onSubmit={unlock}>
        <Field name="pin" label={t('emergency.pin')} inputMode="numeric" autocomplete="off" required />
        <Submit action={action}>{t('emergency.show')}</Submit>
      </Form>
    </>
  );
}

function Message({ children, retry }: { children: string; retry?: () => void }) {
  return (
    <>
      <p class="public-message">{children}</p>
      {retry && (
        <button type="button" onClick={retry}>
          {t('field.tryAgain')}
        </button>
      )}
    </>
  );
}

export function PublicEmergency() {
  const { token = '' } = useRoute().params;
  const [shown, setShown] = useState<Shown>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // Drawn again in the reader's new language, not loaded again (another view, the PIN again).
  const language = useLanguage();
  useNoIndex();
  useEffect(() => {
    let current = true;
    setShown({ kind: 'loading' });
    publicApi.GET('/public/emergency/{token}/', { params: { path: { token } } }).then(
      (answer) => current && setShown(shownFor(answer) ?? failed(answer.response.status)),
      () => current && setShown({ kind: 'failed', message: UNREACHABLE.general[0]! }),
    );
    return () => {
      current = false;
    };
  }, [token, attempt]);
  useEffect(() => {
    document.title = shown.kind === 'info' ? t('emergency.documentTitle', { name: shown.info.name }) : t('emergency.title');
  }, [shown, language]);
  const retry = () => setAttempt((n) => n + 1);
  function answered(next: Shown) {
    setShown(next);
    // The form and its button are gone: a screen reader goes on from the top of what replaced them.
    document.getElementById('main')?.focus();
  }
  if (shown.kind === 'info') return <EmergencyInfo info={shown.info} />;
  return (
    <>
      <h1>{t('emergency.title')}</h1>
      {shown.kind === 'loading' && <p class="public-message">{t('page.loading')}</p>}
      {shown.kind === 'pin' && <PinForm token={token} onAnswer={answered} />}
      {shown.kind === 'gone' && <Message>{t('emergency.gone')}</Message>}
      {shown.kind === 'locked' && <Message retry={retry}>{t('emergency.locked', { minutes: shown.minutes })}</Message>}
      {shown.kind === 'stopped' && <Message>{t('emergency.stopped')}</Message>}
      {shown.kind === 'failed' && <Message retry={retry}>{shown.message}</Message>}
    </>
  );
}
