// /data/emergency (one's own) and /data/users/:user/emergency: emergency items and emergency
// contacts of the app user; adding, changing and deleting only for who may write.
import { type ApiResult, api } from '../../api/client.ts';
import { EditDisclosure } from '../../components/edit-disclosure.tsx';
import { Field, Select, TextArea, text } from '../../components/form.tsx';
import { MediaPreview, mediaId, mediaOptions } from '../../components/media.tsx';
import { Collection } from '../../components/collection.tsx';
import { AppUserMissing } from '../../components/no-app-user.tsx';
import { Page, Status } from '../../components/page.tsx';
import { BackLink, SharedNote } from '../../components/shared-note.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { EmergencyLinksPointer } from './emergency-links-pointer.tsx';
import type { EmergencyContact, EmergencyItem, MediaResource } from '../../api/types.ts';
import { useAppUser } from '../../hooks/use-app-user.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useLiveVersion } from '../../live-updates.ts';
import { useStatusLine } from '../../status-line.tsx';
import { NotFound } from '../not-found.tsx';
import { phoneNumberToSave, refusePhoneNumbers } from './phone-number.ts';
import { t } from '../../i18n/language.ts';
import { Named } from '../../components/rich-text.tsx';

/** The request body of an emergency item, from its add or edit form. */
function itemBody(data: FormData) {
  return { name: text(data, 'name'), description: text(data, 'description'), media_resource: mediaId(data, 'media_resource') };
}

/** The request body of an emergency contact, from its add or edit form. */
function contactBody(data: FormData) {
  return {
    name: text(data, 'name'),
    relation: text(data, 'relation'),
    phone_number: phoneNumberToSave(text(data, 'phone_number')),
    alt_phone_number: phoneNumberToSave(text(data, 'alt_phone_number')),
    email: text(data, 'email'),
  };
}

/** Sends a contact's form with `send`, unless a number in it cannot be one: then says so under it. */
function sendContact<T>(data: FormData, send: (body: ReturnType<typeof contactBody>) => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  const body = contactBody(data);
  const refused = refusePhoneNumbers<T>(body);
  return refused ? Promise.resolve(refused) : send(body);
}

function EditEmergencyItem({
  item,
  gallery,
  onSaved,
}: {
  item: EmergencyItem;
  gallery: MediaResource[] | undefined;
  onSaved(saved: EmergencyItem): void;
}) {
  return (
    <EditDisclosure
      id={`edit-emergency-item-${item.id}`}
      summary={<Named shown={t('data.edit')} heard={t('data.emergency.editNamed', { name: item.name })} />}
      submit={<Named shown={t('data.save')} heard={t('data.emergency.saveNamed', { name: item.name })} />}
      save={(data) => api.PATCH('/app/emergency-items/{id}/', { params: { path: { id: item.id } }, body: itemBody(data) })}
      onSaved={onSaved}
    >
      <Field name="name" label={t('data.nameOf', { name: item.name })} defaultValue={item.name} required />
      <TextArea name="description" label={t('data.descriptionOf', { name: item.name })} defaultValue={item.description} />
      <Select
        name="media_resource"
        label={t('data.imageOf', { name: item.name })}
        options={mediaOptions(gallery)}
        defaultValue={item.media_resource?.id ?? ''}
      />
    </EditDisclosure>
  );
}

function EditContact({ contact, onSaved }: { contact: EmergencyContact; onSaved(saved: EmergencyContact): void }) {
  return (
    <EditDisclosure
      id={`edit-contact-${contact.id}`}
      summary={<Named shown={t('data.edit')} heard={t('data.emergency.editNamed', { name: contact.name })} />}
      submit={<Named shown={t('data.save')} heard={t('data.emergency.saveNamed', { name: contact.name })} />}
      save={(data) =>
        sendContact(data, (body) => api.PATCH('/app/emergency-contacts/{id}/', { params: { path: { id: contact.id } }, body }))
      }
      onSaved={onSaved}
    >
      <Field name="name" label={t('data.nameOf', { name: contact.name })} defaultValue={contact.name} required />
      <Field name="relation" label={t('data.emergency.relationOf', { name: contact.name })} defaultValue={contact.relation} />
      <Field
        name="phone_number"
        label={t('data.emergency.phoneOf', { name: contact.name })}
        type="tel"
        defaultValue={contact.phone_number}
        required
      />
      <Field
        name="alt_phone_number"
        label={t('data.emergency.otherPhoneOf', { name: contact.name })}
        type="tel"
        defaultValue={contact.alt_phone_number}
      />
      <Field name="email" label={t('data.emergency.emailOf', { name: contact.name })} type="email" defaultValue={contact.email} />
    </EditDisclosure>
  );
}

interface SectionProps {
  userId: number;
  /** The caller may add, change and delete. */
  canWrite: boolean;
}

function EmergencyItems({ userId, canWrite }: SectionProps) {
  const params = { path: { id: userId } };
  const live = useLiveVersion(userId);
  const items = useLoad(() => api.GET('/app/users/{id}/emergency-items/', { params }), `${userId}-${live}`);
  const gallery = useLoad(() => api.GET('/app/users/{id}/gallery/', { params }), `${userId}-${live}`);
  const status = useStatusLine();
  function saved(item: EmergencyItem) {
    status.say(t('data.emergency.saved', { name: item.name }));
    items.reload();
  }
  return (
    <Collection
      id="emergency-item"
      heading={t('data.emergency.items')}
      empty={t('data.emergency.noItems')}
      list={items}
      canWrite={canWrite}
      create={(data) => api.POST('/app/users/{id}/emergency-items/', { params, body: itemBody(data) })}
      remove={(id) => api.DELETE('/app/emergency-items/{id}/', { params: { path: { id } } })}
      card={(item) => (
        <>
          {item.description && <p>{item.description}</p>}
          {item.media_resource && <MediaPreview media={item.media_resource} />}
          {canWrite && <EditEmergencyItem item={item} gallery={gallery.data} onSaved={saved} />}
        </>
      )}
      fields={
        <>
          <Field name="name" label={t('data.emergency.itemName')} required />
          <TextArea name="description" label={t('data.emergency.itemDescription')} />
          <Select name="media_resource" label={t('data.emergency.itemImage')} options={mediaOptions(gallery.data)} />
        </>
      }
      submitLabel={t('data.emergency.addItem')}
    />
  );
}

function EmergencyContacts({ userId, canWrite }: SectionProps) {
  const params = { path: { id: userId } };
  const live = useLiveVersion(userId);
  const contacts = useLoad(() => api.GET('/app/users/{id}/emergency-contacts/', { params }), `${userId}-${live}`);
  const status = useStatusLine();
  function saved(contact: EmergencyContact) {
    status.say(t('data.emergency.saved', { name: contact.name }));
    contacts.reload();
  }
  return (
    <Collection
      id="contact"
      heading={t('data.emergency.contacts')}
      empty={t('data.emergency.noContacts')}
      list={contacts}
      canWrite={canWrite}
      create={(data) => sendContact(data, (body) => api.POST('/app/users/{id}/emergency-contacts/', { params, body }))}
      remove={(id) => api.DELETE('/app/emergency-contacts/{id}/', { params: { path: { id } } })}
      card={(contact) => (
        <>
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
          {canWrite && <EditContact contact={contact} onSaved={saved} />}
        </>
      )}
      fields={
        <>
          <Field name="name" label={t('data.emergency.contactName')} autocomplete="off" required />
          <Field name="relation" label={t('data.emergency.relation')} />
          <Field name="phone_number" label={t('data.emergency.phone')} type="tel" hint={t('data.emergency.phoneHint')} required />
          <Field name="alt_phone_number" label={t('data.emergency.otherPhone')} type="tel" />
          <Field name="email" label={t('data.emergency.contactEmail')} type="email" />
        </>
      }
      submitLabel={t('data.emergency.addContact')}
    />
  );
}

export const Emergency = signedIn(function Emergency() {
  const { user, problems, base, mine, canWrite } = useAppUser();
  if (user === null && base !== '/data') return <NotFound />;
  return (
    <Page title={user && !mine ? t('data.emergency.titleOf', { name: user.name }) : t('data.emergencyInformation')}>
      <Status />
      {mine && <EmergencyLinksPointer />}
      {!user ? (
        <AppUserMissing user={user} problems={problems} />
      ) : (
        <>
          {!mine && <BackLink user={user} base={base} />}
          <SharedNote user={user} />
          <EmergencyItems userId={user.id} canWrite={canWrite} />
          <EmergencyContacts userId={user.id} canWrite={canWrite} />
        </>
      )}
    </Page>
  );
});
