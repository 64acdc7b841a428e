// /data: the app user (name, quote) and its profiles.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { Check, Field, Form, Submit, TextArea, text } from '../../components/form.tsx';
import { Loading, Page, Status } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useAppUser } from '../../hooks/use-app-user.ts';
import { useLoad } from '../../hooks/use-load.ts';

function Profiles({ userId, setStatus }: { userId: number; setStatus(message: string): void }) {
  const profiles = useLoad(() => api.GET('/app/users/{id}/profiles/', { params: { path: { id: userId } } }), userId);
  const action = useAction();
  async function add(data: FormData, form: HTMLFormElement) {
    const body = { name: text(data, 'name'), is_default: data.get('is_default') === 'on' };
    const done = await action.run(() => api.POST('/app/users/{id}/profiles/', { params: { path: { id: userId } }, body }));
    if (done) {
      form.reset();
      setStatus(`Profile ${done.data.name} added.`);
      profiles.reload();
    }
  }
  return (
    <section aria-labelledby="profiles-heading">
      <h2 id="profiles-heading">Profiles</h2>
      {profiles.data ? (
        profiles.data.length > 0 ? (
          <ul class="cards">
            {profiles.data.map((profile) => (
              <li key={profile.id} class="card">
                <a href={`/data/profiles/${profile.id}`}>{profile.name}</a> {profile.is_default && <span class="badge">default</span>}
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">No profiles yet.</p>
        )
      ) : (
        <Loading />
      )}
      <Form id="add-profile" action={action} onSubmit={add}>
        <Field name="name" label="Profile name" required />
        <Check name="is_default" label="Default profile" />
        <Submit action={action}>Add profile</Submit>
      </Form>
    </section>
  );
}

function DeleteAppUser({ userId, onDeleted, setStatus }: { userId: number; onDeleted(): void; setStatus(message: string): void }) {
  const action = useAction();
  const [understood, setUnderstood] = useState(false);
  async function remove() {
    if (await action.run(() => api.DELETE('/app/users/{id}/', { params: { path: { id: userId } } }))) {
      setStatus('All your personal data is deleted. Your account stays.');
      onDeleted();
    }
  }
  return (
    <section aria-labelledby="start-over-heading">
      <h2 id="start-over-heading">Start over</h2>
      <Form id="delete-app-user" action={action} onSubmit={remove}>
        <p>Deletes your profiles, topics, items, emergency information and gallery; your account stays.</p>
        <div class="field check">
          <input
            id="delete-app-user-understood"
            type="checkbox"
            checked={understood}
            onChange={(event) => setUnderstood(event.currentTarget.checked)}
          />
          <label for="delete-app-user-understood">I understand all my personal data will be deleted</label>
        </div>
        <button type="submit" class="danger" disabled={!understood || action.busy}>
          Delete all my personal data
        </button>
      </Form>
    </section>
  );
}

export const DataHome = signedIn(function DataHome() {
  const { user, problems, reload } = useAppUser();
  const action = useAction();
  const [status, setStatus] = useState('');
  async function save(data: FormData) {
    const name = text(data, 'name');
    const body = { ...(name ? { name } : {}), quote: text(data, 'quote') };
    const done = user
      ? await action.run(() => api.PATCH('/app/users/{id}/', { params: { path: { id: user.id } }, body }))
      : await action.run(() => api.POST('/app/users/', { body }));
    if (done) {
      setStatus('Saved.');
      reload();
    }
  }
  return (
    <Page title="Your data">
      <Status message={status} />
      {problems && (
        <div role="alert" class="alert">
          {problems.general.join(' ')}
        </div>
      )}
      {user === undefined ? (
        <Loading />
      ) : (
        <>
          <section aria-labelledby="about-heading">
            <h2 id="about-heading">About you</h2>
            {!user && <p>Save your name to start (left empty, your first name is used).</p>}
            <Form id="app-user" action={action} onSubmit={save}>
              <Field name="name" label="Name" defaultValue={user?.name} />
              <TextArea name="quote" label="Quote" defaultValue={user?.quote} />
              <Submit action={action}>Save</Submit>
            </Form>
          </section>
          {user && <Profiles userId={user.id} setStatus={setStatus} />}
          {user && <DeleteAppUser userId={user.id} onDeleted={reload} setStatus={setStatus} />}
          {user && (
            <section aria-labelledby="more-heading">
              <h2 id="more-heading">More</h2>
              <ul>
                <li>
                  <a href="/data/gallery">Gallery</a>: your pictures and files
                </li>
                <li>
                  <a href="/data/emergency">Emergency information</a>: items and contacts
                </li>
              </ul>
            </section>
          )}
        </>
      )}
    </Page>
  );
});
