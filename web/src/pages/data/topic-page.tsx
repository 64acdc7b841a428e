// /data/topics/:id (one's own) and /data/users/:user/topics/:id: one topic and its items, with
// list content (entries) or image content. Forms and buttons appear only for who may write.
// Its profile's page links here with ?profile=<id> (the API's topic does not name its profile):
// deleting the topic goes back to that page.
import { useRoute } from 'preact-iso';
import { api } from '../../api/client.ts';
import type { Item, ListEntry, MediaResource } from '../../api/types.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { EditDisclosure } from '../../components/edit-disclosure.tsx';
import { Field, Form, Select, Submit, TextArea, text } from '../../components/form.tsx';
import { MediaPreview, mediaId, mediaOptions } from '../../components/media.tsx';
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
import { Named } from '../../components/rich-text.tsx';

function EditItem({ item, gallery, onSaved }: { item: Item; gallery: MediaResource[] | undefined; onSaved(saved: Item): void }) {
  const content = item.image_content;
  function body(data: FormData) {
    return {
      name: text(data, 'name'),
      ...(content
        ? {
            image_content: {
              description: text(data, 'image_content.description'),
              image_resource: mediaId(data, 'image_content.image_resource'),
            },
          }
        : {}),
    };
  }
  return (
    <EditDisclosure
      id={`edit-item-${item.id}`}
      summary={<Named shown={t('data.edit')} heard={t('data.topic.editItemNamed', { name: item.name })} />}
      submit={<Named shown={t('data.topic.saveItem')} heard={t('data.topic.saveItemNamed', { name: item.name })} />}
      save={(data) => api.PATCH('/app/items/{id}/', { params: { path: { id: item.id } }, body: body(data) })}
      onSaved={onSaved}
    >
      <Field name="name" label={t('data.nameOf', { name: item.name })} defaultValue={item.name} required />
      {content && (
        <>
          <TextArea
            name="image_content.description"
            label={t('data.descriptionOf', { name: item.name })}
            defaultValue={content.description}
          />
          <Select
            name="image_content.image_resource"
            label={t('data.imageOf', { name: item.name })}
            options={mediaOptions(gallery, true)}
            defaultValue={content.image_resource?.id ?? ''}
          />
        </>
      )}
    </EditDisclosure>
  );
}

function EditEntry({ entry, onSaved }: { entry: ListEntry; onSaved(saved: ListEntry): void }) {
  return (
    <EditDisclosure
      id={`edit-entry-${entry.id}`}
      summary={<Named shown={t('data.edit')} heard={t('data.topic.editEntryNamed', { text: entry.text })} />}
      submit={<Named shown={t('data.save')} heard={t('data.topic.saveEntryNamed', { text: entry.text })} />}
      save={(data) => api.PATCH('/app/list-entries/{id}/', { params: { path: { id: entry.id } }, body: { text: text(data, 'text') } })}
      onSaved={onSaved}
    >
      <Field name="text" label={t('data.topic.entryText', { text: entry.text })} defaultValue={entry.text} required />
    </EditDisclosure>
  );
}

interface ItemCardProps {
  item: Item;
  gallery: MediaResource[] | undefined;
  /** The caller may change it: its forms and buttons show. */
  canWrite: boolean;
  onChange(): void;
}

function ItemCard({ item, gallery, canWrite, onChange }: ItemCardProps) {
  const action = useAction();
  const entryAction = useAction();
  const status = useStatusLine();
  const itemPath = { path: { id: item.id } };
  function changed(message: string) {
    status.say(message);
    onChange();
  }
  async function addEntry(data: FormData, form: HTMLFormElement) {
    const done = await entryAction.run(() =>
      api.POST('/app/items/{id}/list-entries/', { params: itemPath, body: { text: text(data, 'text') } }),
    );
    if (done) {
      form.reset();
      changed(t('data.topic.entryAdded', { text: done.data.text }));
    }
  }
  async function removeEntry(entry: ListEntry) {
    if (await action.run(() => api.DELETE('/app/list-entries/{id}/', { params: { path: { id: entry.id } } }))) {
      changed(t('data.topic.entryDeleted', { text: entry.text }));
    }
  }
  async function remove() {
    if (await action.run(() => api.DELETE('/app/items/{id}/', { params: itemPath })))
      changed(t('data.topic.itemDeleted', { name: item.name }));
  }
  const image = item.image_content?.image_resource ?? item.image_content?.media_resource;
  return (
    <li class="card item">
      <h3>{item.name}</h3>
      <div role="alert" class="alert">
        {[...action.problems.general, ...Object.values(action.problems.fields).flat()].map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
      {item.list_content && (
        <>
          {item.list_content.entries.length > 0 ? (
            <ul class="entries">
              {item.list_content.entries.map((entry) => (
                <li key={entry.id}>
                  <span>{entry.text}</span>
                  {canWrite && (
                    <>
                      <EditEntry entry={entry} onSaved={(saved) => changed(t('data.topic.entrySaved', { text: saved.text }))} />
                      <ConfirmButton
                        small
                        question={t('data.topic.deleteEntryQuestion', { text: entry.text })}
                        confirm={t('data.yesDelete')}
                        disabled={action.busy}
                        onConfirm={() => removeEntry(entry)}
                      >
                        <Named shown={t('data.delete')} heard={t('data.topic.deleteEntryNamed', { text: entry.text })} />
                      </ConfirmButton>
                    </>
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">{t('data.topic.listEmpty')}</p>
          )}
          {canWrite && (
            <Form id={`add-entry-${item.id}`} action={entryAction} onSubmit={addEntry}>
              <Field name="text" label={t('data.topic.newEntry', { name: item.name })} required />
              <Submit action={entryAction}>
                <Named shown={t('data.topic.addEntry')} heard={t('data.topic.addEntryNamed', { name: item.name })} />
              </Submit>
            </Form>
          )}
        </>
      )}
      {item.image_content && (
        <figure>
          {image ? (
            <MediaPreview media={image} alt={item.image_content.description || item.name} />
          ) : (
            <p class="muted">{t('data.topic.noImage')}</p>
          )}
          {item.image_content.description && <figcaption>{item.image_content.description}</figcaption>}
        </figure>
      )}
      {canWrite && (
        <>
          <EditItem item={item} gallery={gallery} onSaved={(saved) => changed(t('data.topic.itemSaved', { name: saved.name }))} />
          <p>
            <ConfirmButton
              question={t('data.topic.deleteItemQuestion', { name: item.name })}
              confirm={t('data.yesDelete')}
              disabled={action.busy}
              onConfirm={remove}
            >
              <Named shown={t('data.topic.deleteItem')} heard={t('data.topic.deleteItemNamed', { name: item.name })} />
            </ConfirmButton>
          </p>
        </>
      )}
    </li>
  );
}

interface AddItemsProps {
  topicId: number;
  gallery: MediaResource[] | undefined;
  /** Where the gallery is: the app user's pages. */
  base: string;
  onAdded(name: string): void;
}

function AddItems({ topicId, gallery, base, onAdded }: AddItemsProps) {
  const listAction = useAction();
  const imageAction = useAction();
  const params = { path: { id: topicId } };
  async function addList(data: FormData, form: HTMLFormElement) {
    const entries = text(data, 'list_content.entries')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => ({ text: line }));
    const body = { name: text(data, 'name'), list_content: { entries } };
    const done = await listAction.run(() => api.POST('/app/topics/{id}/items/', { params, body }));
    if (done) {
      form.reset();
      onAdded(done.data.name);
    }
  }
  async function addImage(data: FormData, form: HTMLFormElement) {
    const body = {
      name: text(data, 'name'),
      image_content: {
        description: text(data, 'image_content.description'),
        image_resource: mediaId(data, 'image_content.image_resource'),
      },
    };
    const done = await imageAction.run(() => api.POST('/app/topics/{id}/items/', { params, body }));
    if (done) {
      form.reset();
      onAdded(done.data.name);
    }
  }
  return (
    <div class="columns">
      <section aria-labelledby="add-list-heading">
        <h2 id="add-list-heading">{t('data.topic.addList')}</h2>
        <Form id="add-list-item" action={listAction} onSubmit={addList}>
          <Field name="name" label={t('data.topic.listItemName')} required />
          <TextArea name="list_content.entries" label={t('data.topic.entries')} rows={4} />
          <Submit action={listAction}>{t('data.topic.addListItem')}</Submit>
        </Form>
      </section>
      <section aria-labelledby="add-image-heading">
        <h2 id="add-image-heading">{t('data.topic.addImage')}</h2>
        <Form id="add-image-item" action={imageAction} onSubmit={addImage}>
          <Field name="name" label={t('data.topic.imageItemName')} required />
          <TextArea name="image_content.description" label={t('data.topic.imageDescription')} />
          <Select
            name="image_content.image_resource"
            label={t('data.topic.image')}
            options={mediaOptions(gallery, true)}
            hint={t('data.topic.imageHint')}
          />
          <Submit action={imageAction}>{t('data.topic.addImageItem')}</Submit>
        </Form>
        <p>
          <a href={`${base}/gallery`}>{t('data.topic.openGallery')}</a>
        </p>
      </section>
    </div>
  );
}

/** The page of the topic's profile when its address names one, else the app user's. */
function profileIdOf(profile: string | undefined): number | null {
  const id = Number(profile);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function profilePage(base: string, profile: string | undefined): string {
  const id = profileIdOf(profile);
  return id ? `${base}/profiles/${id}` : base;
}

export const TopicPage = signedIn(function TopicPage() {
  const route = useRoute();
  const id = Number(route.params.id);
  const { user, base, canWrite } = useAppUser();
  const live = useLiveVersion(user?.id);
  const topic = useLoad(() => api.GET('/app/topics/{id}/', { params: { path: { id } } }), `${id}-${live}`);
  // Its profile, when the address names it: the way back goes there.
  const profileId = profileIdOf(route.query.profile);
  const profile = useLoad(
    () =>
      profileId
        ? api.GET('/app/profiles/{id}/', { params: { path: { id: profileId } } })
        : Promise.resolve({ data: undefined, response: new Response() }),
    profileId,
  );
  const gallery = useLoad(
    () =>
      user
        ? api.GET('/app/users/{id}/gallery/', { params: { path: { id: user.id } } })
        : Promise.resolve({ data: [], response: new Response() }),
    user?.id,
  );
  const saveAction = useAction();
  const status = useStatusLine();
  const path = { path: { id } };

  if (topic.notFound) return <NotFound />;
  // Both, before any button shows: what the caller may do comes with the app user.
  if (!topic.data || user === undefined) return <Loading />;
  const { name } = topic.data;

  async function save(data: FormData) {
    if (await saveAction.run(() => api.PATCH('/app/topics/{id}/', { params: path, body: { name: text(data, 'name') } }))) {
      status.say(t('data.topic.saved'));
      topic.reload();
    }
  }
  async function remove() {
    if (await saveAction.run(() => api.DELETE('/app/topics/{id}/', { params: path })))
      status.goAndSay(profilePage(base, route.query.profile), t('data.topic.deleted', { name }));
  }
  return (
    <Page title={name}>
      {profile.data?.name ? (
        <p>
          <a href={profilePage(base, route.query.profile)}>← {profile.data.name}</a>
        </p>
      ) : (
        <BackLink user={user} base={base} />
      )}
      {user && <SharedNote user={user} />}
      <Status />
      <section aria-labelledby="items-heading">
        <h2 id="items-heading">{t('data.topic.items')}</h2>
        {topic.data.items.length > 0 ? (
          <ul class="cards">
            {topic.data.items.map((item) => (
              <ItemCard
                key={item.id}
                item={item}
                gallery={gallery.data as MediaResource[] | undefined}
                canWrite={canWrite}
                onChange={topic.reload}
              />
            ))}
          </ul>
        ) : (
          <p class="muted">{t('data.topic.noItems')}</p>
        )}
      </section>
      {canWrite && (
        <AddItems
          topicId={id}
          gallery={gallery.data as MediaResource[] | undefined}
          base={base}
          onAdded={(name) => {
            status.say(t('data.topic.itemAdded', { name }));
            topic.reload();
          }}
        />
      )}
      {canWrite && (
        <section aria-labelledby="edit-topic-heading">
          <h2 id="edit-topic-heading">{t('data.topic.edit')}</h2>
          <Form id="topic" action={saveAction} onSubmit={save}>
            <Field name="name" label={t('data.topicName')} defaultValue={name} required />
            <p class="actions">
              <Submit action={saveAction}>{t('data.topic.save')}</Submit>
              <ConfirmButton
                question={t('data.topic.deleteQuestion', { name })}
                confirm={t('data.yesDelete')}
                disabled={saveAction.busy}
                onConfirm={remove}
              >
                {t('data.topic.delete')}
              </ConfirmButton>
            </p>
          </Form>
        </section>
      )}
    </Page>
  );
});
