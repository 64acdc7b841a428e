// /data/gallery (one's own) and /data/users/:user/gallery: the app user's media: uploads
// (multipart) with a preview, and the list; uploads, renames and deletions only for who may write.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import type { MediaResource } from '../../api/types.ts';
import { EditDisclosure } from '../../components/edit-disclosure.tsx';
import { Field, Form, Submit, text } from '../../components/form.tsx';
import { MediaPreview } from '../../components/media.tsx';
import { AppUserMissing } from '../../components/no-app-user.tsx';
import { Loading, Page, Status } from '../../components/page.tsx';
import { BackLink, SharedNote } from '../../components/shared-note.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useAppUser } from '../../hooks/use-app-user.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useLiveVersion } from '../../live-updates.ts';
import { useStatusLine } from '../../status-line.tsx';
import { NotFound } from '../not-found.tsx';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { t } from '../../i18n/language.ts';
import { Named } from '../../components/rich-text.tsx';

function RenameMedia({ media, onSaved }: { media: MediaResource; onSaved(name: string): void }) {
  return (
    <EditDisclosure
      id={`rename-media-${media.id}`}
      summary={<Named shown={t('data.gallery.rename')} heard={t('data.gallery.renameNamed', { name: media.name })} />}
      submit={<Named shown={t('data.save')} heard={t('data.gallery.saveNamed', { name: media.name })} />}
      save={(data) => {
        const name = text(data, 'name');
        // The name it has: nothing to change, so nothing is sent.
        if (name === media.name) return Promise.resolve({ data: media, response: new Response() });
        return api.PATCH('/app/media-resources/{id}/', { params: { path: { id: media.id } }, body: { name } });
      }}
      onSaved={(saved) => onSaved(saved.name)}
    >
      <Field name="name" label={t('data.nameOf', { name: media.name })} defaultValue={media.name} required />
    </EditDisclosure>
  );
}

interface MediaListProps {
  userId: number;
  /** The caller may rename and delete. */
  canWrite: boolean;
  version: number;
}

function MediaList({ userId, canWrite, version }: MediaListProps) {
  const live = useLiveVersion(userId);
  const gallery = useLoad(() => api.GET('/app/users/{id}/gallery/', { params: { path: { id: userId } } }), `${userId}-${version}-${live}`);
  const action = useAction();
  const status = useStatusLine();
  async function remove(id: number, name: string) {
    if (await action.run(() => api.DELETE('/app/media-resources/{id}/', { params: { path: { id } } }))) {
      status.say(t('data.gallery.deleted', { name }));
      gallery.reload();
    }
  }
  if (!gallery.data) return <Loading />;
  if (gallery.data.length === 0) return <p class="muted">{t('data.gallery.empty')}</p>;
  return (
    <>
      <div role="alert" class="alert">
        {action.problems.general.join(' ')}
      </div>
      <ul class="gallery">
        {gallery.data.map((media) => (
          <li key={media.id} class="card">
            <figure>
              <MediaPreview media={media} />
              <figcaption>
                {media.name} <span class="muted">{t('data.gallery.size', { kilobytes: Math.ceil(media.size / 1024) })}</span>
              </figcaption>
            </figure>
            {canWrite && (
              <>
                <RenameMedia
                  media={media}
                  onSaved={(name) => {
                    if (name === media.name) status.say(t('data.gallery.keepsName', { name: media.name }));
                    else {
                      status.say(t('data.gallery.renamed', { old: media.name, name }));
                      gallery.reload();
                    }
                  }}
                />
                <ConfirmButton
                  small
                  question={t('data.gallery.deleteQuestion', { name: media.name })}
                  confirm={t('data.yesDelete')}
                  disabled={action.busy}
                  onConfirm={() => remove(media.id, media.name)}
                >
                  <Named shown={t('data.delete')} heard={t('data.gallery.deleteNamed', { name: media.name })} />
                </ConfirmButton>
              </>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

export const Gallery = signedIn(function Gallery() {
  const { user, problems, base, mine, canWrite } = useAppUser();
  const action = useAction();
  const status = useStatusLine();
  const [version, setVersion] = useState(0);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function choose(event: Event) {
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    setPreview(file?.type.startsWith('image/') ? URL.createObjectURL(file) : null);
  }
  async function upload(data: FormData, form: HTMLFormElement) {
    if (!user) return;
    const body = new FormData();
    body.set('name', text(data, 'name'));
    const file = data.get('file');
    if (file instanceof File && file.size > 0) body.set('file', file);
    const done = await action.run(() =>
      api.POST('/app/users/{id}/gallery/', {
        params: { path: { id: user.id } },
        body: body as never,
        // Sent as it is: the browser writes the multipart body and its boundary.
        bodySerializer: (value: unknown) => value as FormData,
      }),
    );
    if (done) {
      form.reset();
      setPreview(null);
      status.say(t('data.gallery.uploaded', { name: done.data.name }));
      setVersion((n) => n + 1);
    }
  }
  if (user === null && base !== '/data') return <NotFound />;
  return (
    <Page title={user && !mine ? t('data.gallery.titleOf', { name: user.name }) : t('data.gallery.title')}>
      <Status />
      {!user ? (
        <AppUserMissing user={user} problems={problems} />
      ) : (
        <>
          {!mine && <BackLink user={user} base={base} />}
          <SharedNote user={user} />
          {canWrite && (
            <section aria-labelledby="upload-heading">
              <h2 id="upload-heading">{t('data.gallery.upload')}</h2>
              <Form id="upload" action={action} onSubmit={upload}>
                <Field name="name" label={t('data.gallery.name')} required />
                <Field
                  name="file"
                  label={t('data.gallery.file')}
                  type="file"
                  accept="image/*,application/pdf,audio/*,video/*"
                  onChange={choose}
                  required
                />
                {preview && <img class="preview" src={preview} alt={t('data.gallery.preview')} />}
                <Submit action={action}>{t('data.gallery.uploadButton')}</Submit>
              </Form>
            </section>
          )}
          <section aria-labelledby="files-heading">
            <h2 id="files-heading">{mine ? t('data.gallery.inYours') : t('data.gallery.inTheirs')}</h2>
            <MediaList userId={user.id} canWrite={canWrite} version={version} />
          </section>
        </>
      )}
    </Page>
  );
});
