// /data/profiles/:id (one's own) and /data/users/:user/profiles/:id: one profile, its topics.
// The forms appear only for who may write; "Private profile" is set by the owner alone.
import { useRoute } from 'preact-iso';
import { api } from '../../api/client.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { Check, Field, Form, Select, Submit, text } from '../../components/form.tsx';
import { Loading, Page, Status } from '../../components/page.tsx';
import { BackLink, SharedNote } from '../../components/shared-note.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useAppUser } from '../../hooks/use-app-user.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useLiveVersion } from '../../live-updates.ts';
import { useStatusLine } from '../../status-line.tsx';
import { NotFound } from '../not-found.tsx';
import { t } from '../../i18n/language.ts';

export const ProfilePage = signedIn(function ProfilePage() {
  const id = Number(useRoute().params.id);
  const { user, base, mine, canWrite } = useAppUser();
  const live = useLiveVersion(user?.id);
  const profile = useLoad(() => api.GET('/app/profiles/{id}/', { params: { path: { id } } }), `${id}-${live}`);
  const types = useLoad(() => api.GET('/app/topic-types/'));
  const saveAction = useAction();
  const topicAction = useAction();
  const status = useStatusLine();
  const path = { path: { id } };

  if (profile.notFound) return <NotFound />;
  // Both, before any button shows: what the caller may do comes with the app user.
  if (!profile.data || user === undefined) return <Loading />;
  const { name } = profile.data;
  const typeLabel = (type: number) => types.data?.find((entry) => entry.id === type)?.label ?? t('data.profile.typeNumber', { type });

  async function save(data: FormData) {
    const body = {
      name: text(data, 'name'),
      is_default: data.get('is_default') === 'on',
      // Owner only: an accessor's request naming it is refused.
      ...(mine ? { is_private: data.get('is_private') === 'on' } : {}),
    };
    if (await saveAction.run(() => api.PATCH('/app/profiles/{id}/', { params: path, body }))) {
      status.say(t('data.profile.saved'));
      profile.reload();
    }
  }
  async function remove() {
    if (await saveAction.run(() => api.DELETE('/app/profiles/{id}/', { params: path })))
      status.goAndSay(base, t('data.profile.deleted', { name }));
  }
  async function addTopic(data: FormData, form: HTMLFormElement) {
    const body = { name: text(data, 'name'), topic_type: Number(data.get('topic_type')) as 3 | 4 };
    const done = await topicAction.run(() => api.POST('/app/profiles/{id}/topics/', { params: path, body }));
    if (done) {
      form.reset();
      status.say(t('data.profile.topicAdded', { name: done.data.name }));
      profile.reload();
    }
  }
  return (
    <Page title={name}>
      <BackLink user={user} base={base} />
      {user && <SharedNote user={user} />}
      {profile.data.is_private && (
        <p>
          <span class="badge warn">{t('data.privateProfile')}</span> {mine ? t('data.profile.privateOwn') : t('data.profile.privateShared')}
        </p>
      )}
      <Status />
      <section aria-labelledby="topics-heading">
        <h2 id="topics-heading">{t('data.profile.topics')}</h2>
        {profile.data.topics.length > 0 ? (
          <ul class="cards">
            {profile.data.topics.map((topic) => (
              <li key={topic.id} class="card">
                <a href={`${base}/topics/${topic.id}?profile=${id}`}>{topic.name}</a>{' '}
                <span class="muted">{t('data.profile.topicType', { type: typeLabel(topic.topic_type) })}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">{t('data.profile.noTopics')}</p>
        )}
        {canWrite && (
          <Form id="add-topic" action={topicAction} onSubmit={addTopic}>
            <Field name="name" label={t('data.topicName')} required />
            <Select
              name="topic_type"
              label={t('data.profile.topicTypeLabel')}
              options={(types.data ?? []).map((type) => ({ value: type.id, label: type.label }))}
            />
            <Submit action={topicAction}>{t('data.profile.addTopic')}</Submit>
          </Form>
        )}
      </section>
      {canWrite && (
        <section aria-labelledby="edit-profile-heading">
          <h2 id="edit-profile-heading">{t('data.profile.edit')}</h2>
          <Form id="profile" action={saveAction} onSubmit={save}>
            <Field name="name" label={t('data.profileName')} defaultValue={name} required />
            <Check name="is_default" label={t('data.defaultProfile')} defaultChecked={profile.data.is_default} />
            {mine && <Check name="is_private" label={t('data.privateProfile')} defaultChecked={profile.data.is_private} />}
            <p class="actions">
              <Submit action={saveAction}>{t('data.profile.save')}</Submit>
              <ConfirmButton
                question={t('data.profile.deleteQuestion', { name })}
                confirm={t('data.yesDelete')}
                disabled={saveAction.busy}
                onConfirm={remove}
              >
                {t('data.profile.delete')}
              </ConfirmButton>
            </p>
          </Form>
        </section>
      )}
    </Page>
  );
});
