// /data (one's own app user) and /data/users/:user (any the caller may see, one shared with
// them included): the app user (name, quote) and its profiles. Someone else's is shown with
// what they allow: its profiles, and the add form only when they may write; its name, quote,
// sharing and deletion stay its owner's.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import type { AppUser } from '../../api/types.ts';
import { Check, Field, Form, Submit, TextArea, text } from '../../components/form.tsx';
import { Loading, Page, Status } from '../../components/page.tsx';
import { SharedNote } from '../../components/shared-note.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { type AppUserState, useAppUser } from '../../hooks/use-app-user.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useLiveVersion } from '../../live-updates.ts';
import { useStatusLine } from '../../status-line.tsx';
import { t } from '../../i18n/language.ts';
import { Rich } from '../../components/rich-text.tsx';
import { NotFound } from '../not-found.tsx';

function Profiles({ state }: { state: AppUserState & { user: AppUser } }) {
  const { user, base, mine, canWrite } = state;
  const live = useLiveVersion(user.id);
  const profiles = useLoad(() => api.GET('/app/users/{id}/profiles/', { params: { path: { id: user.id } } }), `${user.id}-${live}`);
  const action = useAction();
  const status = useStatusLine();
  async function add(data: FormData, form: HTMLFormElement) {
    const body = {
      name: text(data, 'name'),
      is_default: data.get('is_default') === 'on',
      // Owner only: an accessor's request naming it is refused.
      ...(mine ? { is_private: data.get('is_private') === 'on' } : {}),
    };
    const done = await action.run(() => api.POST('/app/users/{id}/profiles/', { params: { path: { id: user.id } }, body }));
    if (done) {
      form.reset();
      status.say(t('data.home.profileAdded', { name: done.data.name }));
      profiles.reload();
    }
  }
  return (
    <section aria-labelledby="profiles-heading">
      <h2 id="profiles-heading">{t('data.home.profiles')}</h2>
      {profiles.data ? (
        profiles.data.length > 0 ? (
          <ul class="cards">
            {profiles.data.map((profile) => (
              <li key={profile.id} class="card">
                <a href={`${base}/profiles/${profile.id}`}>{profile.name}</a>{' '}
                {profile.is_default && <span class="badge">{t('data.home.badgeDefault')}</span>}{' '}
                {profile.is_private && <span class="badge warn">{t('data.home.badgePrivate')}</span>}
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">{t('data.home.noProfiles')}</p>
        )
      ) : (
        <Loading />
      )}
      {canWrite && (
        <Form id="add-profile" action={action} onSubmit={add}>
          <Field name="name" label={t('data.profileName')} required />
          <Check name="is_default" label={t('data.defaultProfile')} />
          {mine && <Check name="is_private" label={t('data.privateProfile')} />}
          <Submit action={action}>{t('data.home.addProfile')}</Submit>
        </Form>
      )}
    </section>
  );
}

function DeleteAppUser({ userId, onDeleted }: { userId: number; onDeleted(): void }) {
  const action = useAction();
  const status = useStatusLine();
  const [understood, setUnderstood] = useState(false);
  async function remove() {
    if (await action.run(() => api.DELETE('/app/users/{id}/', { params: { path: { id: userId } } }))) {
      status.say(t('data.home.startOver.done'));
      onDeleted();
    }
  }
  return (
    <section aria-labelledby="start-over-heading">
      <h2 id="start-over-heading">{t('data.home.startOver.heading')}</h2>
      <Form id="delete-app-user" action={action} onSubmit={remove}>
        <p>{t('data.home.startOver.explain')}</p>
        <div class="field check">
          <input
            id="delete-app-user-understood"
            type="checkbox"
            checked={understood}
            onChange={(event) => setUnderstood(event.currentTarget.checked)}
          />
          <label for="delete-app-user-understood">{t('data.home.startOver.understood')}</label>
        </div>
        <button type="submit" class="danger" disabled={!understood || action.busy}>
          {t('data.home.startOver.submit')}
        </button>
      </Form>
    </section>
  );
}

export const DataHome = signedIn(function DataHome() {
  const state = useAppUser();
  const { user, problems, reload, base, mine } = state;
  const action = useAction();
  const status = useStatusLine();
  async function save(data: FormData) {
    const name = text(data, 'name');
    const body = { ...(name ? { name } : {}), quote: text(data, 'quote') };
    const done = user
      ? await action.run(() => api.PATCH('/app/users/{id}/', { params: { path: { id: user.id } }, body }))
      : await action.run(() => api.POST('/app/users/', { body }));
    if (done) {
      status.say(t('data.home.saved'));
      reload();
    }
  }
  // By path, an app user the caller may not see (or no longer: access revoked) is no page.
  if (user === null && base !== '/data') return <NotFound />;
  const shared = user && !mine;
  return (
    <Page title={shared ? user.name : t('data.yourData')}>
      <Status />
      {problems && (
        <div role="alert" class="alert">
          {problems.general.join(' ')}
        </div>
      )}
      {user === undefined ? (
        <Loading />
      ) : shared ? (
        <>
          <SharedNote user={user} />
          {user.quote && <blockquote>{user.quote}</blockquote>}
        </>
      ) : (
        <section aria-labelledby="about-heading">
          <h2 id="about-heading">{t('data.home.about')}</h2>
          {!user && <p>{t('data.home.saveNameFirst')}</p>}
          <Form id="app-user" action={action} onSubmit={save}>
            <Field name="name" label={t('data.home.name')} defaultValue={user?.name} />
            <TextArea name="quote" label={t('data.home.quote')} defaultValue={user?.quote} />
            <Submit action={action}>{t('data.save')}</Submit>
          </Form>
        </section>
      )}
      {user && <Profiles state={{ ...state, user }} />}
      {user && (
        <section aria-labelledby="more-heading">
          <h2 id="more-heading">{t('data.home.more')}</h2>
          <ul>
            <li>
              <Rich
                k={mine ? 'data.home.more.galleryOwn' : 'data.home.more.gallery'}
                parts={{ link: <a href={`${base}/gallery`}>{t('data.home.more.galleryLink')}</a> }}
              />
            </li>
            <li>
              <Rich k="data.home.more.emergency" parts={{ link: <a href={`${base}/emergency`}>{t('data.emergencyInformation')}</a> }} />
            </li>
            {mine && (
              <li>
                <Rich k="data.home.more.share" parts={{ link: <a href="/data/share">{t('data.home.more.shareLink')}</a> }} />
              </li>
            )}
            {mine && (
              <li>
                <Rich k="data.home.more.activity" parts={{ link: <a href="/data/activity">{t('data.home.more.activityLink')}</a> }} />
              </li>
            )}
          </ul>
        </section>
      )}
      {/* The destructive action last, away from the links a person comes for. */}
      {user && mine && <DeleteAppUser userId={user.id} onDeleted={reload} />}
    </Page>
  );
});
