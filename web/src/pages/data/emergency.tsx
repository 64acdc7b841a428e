// /data/emergency: emergency items and emergency contacts of the app user.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { Field, Form, Select, Submit, TextArea, text } from '../../components/form.tsx';
import { MediaPreview, mediaId, mediaOptions } from '../../components/media.tsx';
import { AppUserMissing } from '../../components/no-app-user.tsx';
import { Hidden, Loading, Page, Status } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import type { EmergencyContact, EmergencyItem, MediaResource } from '../../api/types.ts';
import { useAction } from '../../hooks/use-action.ts';
import { useAppUser } from '../../hooks/use-app-user.ts';
import { useLoad } from '../../hooks/use-load.ts';

const digits = (value: string) => value.replace(/[\s()+-]/g, '');

function EditEmergencyItem({ item, gallery, onSaved }: { item: EmergencyItem; gallery: MediaResource[] | undefined; onSaved(): void }) {
  const action = useAction();
  async function save(data: FormData) {
    const body = { name: text(data, 'name'), description: text(data, 'description'), media_resource: mediaId(data, 'media_resource') };
    if (await action.run(() => api.PATCH('/app/emergency-items/{id}/', { params: { path: { id: item.id } }, body }))) onSaved();
  }
  return (
    <details>
      <summary>
        Edit<Hidden> {item.name}</Hidden>
      </summary>
      <Form id={`edit-emergency-item-${item.id}`} action={action} onSubmit={save}>
        <Field name="name" label={`Name of ${item.name}`} defaultValue={item.name} required />
        <TextArea name="description" label={`Description of ${item.name}`} defaultValue={item.description} />
        <Select
          name="media_resource"
          label={`Image of ${item.name}`}
          options={mediaOptions(gallery)}
          defaultValue={item.media_resource?.id ?? ''}
        />
        <Submit action={action}>
          Save<Hidden> {item.name}</Hidden>
        </Submit>
      </Form>
    </details>
  );
}

function EditContact({ contact, onSaved }: { contact: EmergencyContact; onSaved(): void }) {
  const action = useAction();
  async function save(data: FormData) {
    const body = {
      name: text(data, 'name'),
      relation: text(data, 'relation'),
      phone_number: digits(text(data, 'phone_number')),
      alt_phone_number: digits(text(data, 'alt_phone_number')),
      email: text(data, 'email'),
    };
    if (await action.run(() => api.PATCH('/app/emergency-contacts/{id}/', { params: { path: { id: contact.id } }, body }))) onSaved();
  }
  return (
    <details>
      <summary>
        Edit<Hidden> {contact.name}</Hidden>
      </summary>
      <Form id={`edit-contact-${contact.id}`} action={action} onSubmit={save}>
        <Field name="name" label={`Name of ${contact.name}`} defaultValue={contact.name} required />
        <Field name="relation" label={`Relation of ${contact.name}`} defaultValue={contact.relation} />
        <Field name="phone_number" label={`Phone number of ${contact.name}`} type="tel" defaultValue={contact.phone_number} required />
        <Field name="alt_phone_number" label={`Other phone number of ${contact.name}`} type="tel" defaultValue={contact.alt_phone_number} />
        <Field name="email" label={`E-mail address of ${contact.name}`} type="email" defaultValue={contact.email} />
        <Submit action={action}>
          Save<Hidden> {contact.name}</Hidden>
        </Submit>
      </Form>
    </details>
  );
}

function EmergencyItems({ userId, setStatus }: { userId: number; setStatus(message: string): void }) {
  const params = { path: { id: userId } };
  const items = useLoad(() => api.GET('/app/users/{id}/emergency-items/', { params }), userId);
  const gallery = useLoad(() => api.GET('/app/users/{id}/gallery/', { params }), userId);
  const action = useAction();
  const removeAction = useAction();
  async function add(data: FormData, form: HTMLFormElement) {
    const body = { name: text(data, 'name'), description: text(data, 'description'), media_resource: mediaId(data, 'media_resource') };
    const done = await action.run(() => api.POST('/app/users/{id}/emergency-items/', { params, body }));
    if (done) {
      form.reset();
      setStatus(`${done.data.name} added.`);
      items.reload();
    }
  }
  async function remove(id: number, name: string) {
    if (await removeAction.run(() => api.DELETE('/app/emergency-items/{id}/', { params: { path: { id } } }))) {
      setStatus(`${name} is deleted.`);
      items.reload();
    }
  }
  return (
    <section aria-labelledby="emergency-items-heading">
      <h2 id="emergency-items-heading">Emergency items</h2>
      <div role="alert" class="alert">
        {removeAction.problems.general.join(' ')}
      </div>
      {!items.data ? (
        <Loading />
      ) : items.data.length === 0 ? (
        <p class="muted">No emergency items yet.</p>
      ) : (
        <ul class="cards">
          {items.data.map((item) => (
            <li key={item.id} class="card">
              <h3>{item.name}</h3>
              {item.description && <p>{item.description}</p>}
              {item.media_resource && <MediaPreview media={item.media_resource} />}
              <EditEmergencyItem item={item} gallery={gallery.data} onSaved={items.reload} />
              <button type="button" class="danger small" disabled={removeAction.busy} onClick={() => remove(item.id, item.name)}>
                Delete<Hidden> {item.name}</Hidden>
              </button>
            </li>
          ))}
        </ul>
      )}
      <Form id="add-emergency-item" action={action} onSubmit={add}>
        <Field name="name" label="Emergency item name" required />
        <TextArea name="description" label="Emergency item description" />
        <Select name="media_resource" label="Emergency item image" options={mediaOptions(gallery.data)} />
        <Submit action={action}>Add emergency item</Submit>
      </Form>
    </section>
  );
}

function EmergencyContacts({ userId, setStatus }: { userId: number; setStatus(message: string): void }) {
  const params = { path: { id: userId } };
  const contacts = useLoad(() => api.GET('/app/users/{id}/emergency-contacts/', { params }), userId);
  const action = useAction();
  const removeAction = useAction();
  async function add(data: FormData, form: HTMLFormElement) {
    const body = {
      name: text(data, 'name'),
      relation: text(data, 'relation'),
      phone_number: digits(text(data, 'phone_number')),
      alt_phone_number: digits(text(data, 'alt_phone_number')),
      email: text(data, 'email'),
    };
    const done = await action.run(() => api.POST('/app/users/{id}/emergency-contacts/', { params, body }));
    if (done) {
      form.reset();
      setStatus(`${done.data.name} added.`);
      contacts.reload();
    }
  }
  async function remove(id: number, name: string) {
    if (await removeAction.run(() => api.DELETE('/app/emergency-contacts/{id}/', { params: { path: { id } } }))) {
      setStatus(`${name} is deleted.`);
      contacts.reload();
    }
  }
  return (
    <section aria-labelledby="contacts-heading">
      <h2 id="contacts-heading">Emergency contacts</h2>
      <div role="alert" class="alert">
        {removeAction.problems.general.join(' ')}
      </div>
      {!contacts.data ? (
        <Loading />
      ) : contacts.data.length === 0 ? (
        <p class="muted">No emergency contacts yet.</p>
      ) : (
        <ul class="cards">
          {contacts.data.map((contact) => (
            <li key={contact.id} class="card">
              <h3>{contact.name}</h3>
              <p>
                {contact.relation && <>{contact.relation} · </>}
                <a href={`tel:${contact.phone_number}`}>{contact.phone_number}</a>
                {contact.alt_phone_number && (
                  <>
                    {' '}
                    · <a href={`tel:${contact.alt_phone_number}`}>{contact.alt_phone_number}</a>
                  </>
                )}
                {contact.email && (
                  <>
                    {' '}
                    · <a href={`mailto:${contact.email}`}>{contact.email}</a>
                  </>
                )}
              </p>
              <EditContact contact={contact} onSaved={contacts.reload} />
              <button type="button" class="danger small" disabled={removeAction.busy} onClick={() => remove(contact.id, contact.name)}>
                Delete<Hidden> {contact.name}</Hidden>
              </button>
            </li>
          ))}
        </ul>
      )}
      <Form id="add-contact" action={action} onSubmit={add}>
        <Field name="name" label="Contact name" autocomplete="off" required />
        <Field name="relation" label="Relation" />
        <Field name="phone_number" label="Phone number" type="tel" hint="9 to 15 digits, e.g. 5551234567." required />
        <Field name="alt_phone_number" label="Other phone number" type="tel" />
        <Field name="email" label="Contact e-mail address" type="email" />
        <Submit action={action}>Add contact</Submit>
      </Form>
    </section>
  );
}

export const Emergency = signedIn(function Emergency() {
  const { user, problems } = useAppUser();
  const [status, setStatus] = useState('');
  return (
    <Page title="Emergency information">
      <Status message={status} />
      {!user ? (
        <AppUserMissing user={user} problems={problems} />
      ) : (
        <>
          <EmergencyItems userId={user.id} setStatus={setStatus} />
          <EmergencyContacts userId={user.id} setStatus={setStatus} />
        </>
      )}
    </Page>
  );
});
