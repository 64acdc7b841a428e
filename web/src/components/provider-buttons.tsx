// "Continue with <label>" for each provider the operator configured (docs/sign-in-providers.md): links to
// the service's start of the web flow, which sends the browser to the provider. The way back
// is /sign-in/provider (pages/provider-sign-in.tsx), with `next` as the landing page.
import { api } from '../api/client.ts';
import { useLoad } from '../hooks/use-load.ts';
import { rememberProviderSignIn } from '../session.ts';
import { t } from '../i18n/language.ts';

export function ProviderButtons({ next, remember }: { next: string; remember?: () => boolean }) {
  const providers = useLoad(() => api.GET('/auth/providers/'));
  if (!providers.data || providers.data.length === 0) return null;
  return (
    <section aria-labelledby="providers-heading" class="providers">
      <h2 id="providers-heading">{t('providers.heading')}</h2>
      <p class="actions">
        {providers.data.map((provider) => (
          <a
            key={provider.name}
            class="button secondary"
            // A page of the service, not of this client: target="_top" keeps the client's router
            // (preact-iso) from taking the click, so the browser really goes there.
            target="_top"
            href={`/auth/oidc/${encodeURIComponent(provider.name)}/start/?redirect=${encodeURIComponent(next)}`}
            onClick={() => rememberProviderSignIn(remember?.() ?? false)}
          >
            {t('providers.continueWith', { label: provider.label })}
          </a>
        ))}
      </p>
    </section>
  );
}
