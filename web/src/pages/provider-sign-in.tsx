// /sign-in/provider: where the service sends the browser back from another provider
// (docs/sign-in-providers.md), with a one-time code in the fragment (or the reason the sign-in was refused). The
// code is exchanged once for a token — or, with TOTP on, for the two-step answer, finished here
// as on the sign-in page — and the visitor goes on to `next`. The exchange is same-origin, so
// the browser sends the flow's cookie with it: the code works only in the browser that started
// the flow (docs/sign-in-providers.md).
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../api/client.ts';
import { Loading, Page } from '../components/page.tsx';
import { SecondStep } from '../components/second-step.tsx';
import { problemsOf } from '../api/problems.ts';
import { keepToken, providerSignInRemembered } from '../session.ts';
import { destination } from './sign-in.tsx';
import { t } from '../i18n/language.ts';

/** What the fragment held; read once, then removed from the address bar (the code works once). */
function takeFragment(): URLSearchParams {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  if (window.location.hash) history.replaceState(null, '', window.location.pathname + window.location.search);
  return fragment;
}

export function ProviderSignIn() {
  const { route } = useLocation();
  const [fragment] = useState(takeFragment);
  const [remember] = useState(providerSignInRemembered);
  const next = destination(fragment.get('next') ?? undefined);
  const [problem, setProblem] = useState<string[]>(() => {
    const error = fragment.get('error');
    if (error) return [error];
    return fragment.get('code') ? [] : [t('providerSignIn.incomplete')];
  });
  const [mfaToken, setMfaToken] = useState<string | null>(null);

  function signedIn(token: string) {
    keepToken(token, remember);
    route(next, true);
  }

  useEffect(() => {
    const code = fragment.get('code');
    if (!code) return;
    api.POST('/auth/login/code/', { body: { code } }).then((result) => {
      if (!result.data) {
        const problems = problemsOf(result.error, result.response.status);
        setProblem([...problems.general, ...Object.values(problems.fields).flat()]);
      } else if ('token' in result.data) signedIn(result.data.token);
      else setMfaToken(result.data.mfa_token);
    });
  }, []);

  if (mfaToken) return <SecondStep mfaToken={mfaToken} onSignedIn={signedIn} onRestart={() => route('/sign-in')} />;
  return (
    <Page title={t('providerSignIn.title')}>
      {problem.length > 0 ? (
        <>
          <div role="alert" class="alert">
            {problem.map((message) => (
              <p key={message}>{message}</p>
            ))}
          </div>
          <p>
            <a href="/sign-in">{t('providerSignIn.back')}</a>
          </p>
        </>
      ) : (
        <Loading />
      )}
    </Page>
  );
}
