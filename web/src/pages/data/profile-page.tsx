// /data/profiles/:id: one profile, its topics.
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api } from '../../api/client.ts';
import { Check, Field, Form, Select, Submit, text } from '../../components/form.tsx';
import { Loading, Page, Status } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { NotFound } from '../not-found.tsx';

export const ProfilePage = signedIn(function ProfilePage() {
  const id = Number(useRoute().params.id);
  const { route } = useLocation();
  const profile = useLoad(() => api.GET('/app/profiles/{id}/', { params: { path: { id } } }), id);
  const types = useLoad(() => api.GET('/app/topic-types/'));
  const saveAction = useAction();
  const topicAction = useAction();
  const [status, setStatus] = useState('');
  const path = { path: { id } };

  if (profile.notFound) return <NotFound />;
  if (!profile.data) return <Loading />;
  const typeLabel = (type: number) => types.data?.find((t) => t.id === type)?.label ?? `type ${type}`;

  async function save(data: FormData) {
    const body = { name: text(data, 'name'), is_default: data.get('is_default') === 'on' };
    if (await saveAction.run(() => api.PATCH('/app/profiles/{id}/', { params: path, body }))) {
      setStatus('Profile saved.');
      profile.reload();
    }
  }
  async function remove() {
    if (await saveAction.run(() => api.DELETE('/app/profiles/{id}/', { params: path }))) route('/data');
  }
  async function addTopic(data: FormData, form: HTMLFormElement) {
    const body = { name: text(data, 'name'), topic_type: Number(data.get('topic_type')) as 3 | 4 };
    const done = await topicAction.run(() => api.POST('/app/profiles/{id}/topics/', { params: path, body }));
    if (done) {
      form.reset();
      setStatus(`Topic ${done.data.name} added.`);
      profile.reload();
    }
  }
  return (
    <Page title={profile.data.name}>
      <p>
        <a href="/data">← Your data</a>
      </p>
      <Status message={status} />
      <section aria-labelledby="topics-heading">
        <h2 id="topics-heading">Topics</h2>
        {profile.data.topics.length > 0 ? (
          <ul class="cards">
            {profile.data.topics.map((topic) => (
              <li key={topic.id} class="card">
                <a href={`/data/topics/${topic.id}`}>{topic.name}</a> <span class="muted">({typeLabel(topic.topic_type)})</span>
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">No topics yet.</p>
        )}
        <Form id="add-topic" action={topicAction} onSubmit={addTopic}>
          <Field name="name" label="Topic name" required />
          <Select name="topic_type" label="Topic type" options={(types.data ?? []).map((t) => ({ value: t.id, label: t.label }))} />
          <Submit action={topicAction}>Add topic</Submit>
        </Form>
      </section>
      <section aria-labelledby="edit-profile-heading">
        <h2 id="edit-profile-heading">Edit the profile</h2>
        <Form id="profile" action={saveAction} onSubmit={save}>
          <Field name="name" label="Profile name" defaultValue={profile.data.name} required />
          <Check name="is_default" label="Default profile" defaultChecked={profile.data.is_default} />
          <p class="actions">
            <Submit action={saveAction}>Save profile</Submit>
            <button type="button" class="danger" disabled={saveAction.busy} onClick={remove}>
              Delete profile
            </button>
          </p>
        </Form>
      </section>
    </Page>
  );
});
