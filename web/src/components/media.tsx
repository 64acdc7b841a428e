// Media resources as a page shows them: an image preview (the signed `file` URL), or a link.
import type { MediaResource } from '../api/types.ts';
import { t } from '../i18n/language.ts';

export function MediaPreview({ media, alt }: { media: MediaResource; alt?: string }) {
  if (media.content_type.startsWith('image/')) return <img class="preview" src={media.file} alt={alt ?? media.name} loading="lazy" />;
  return (
    <a href={media.file} target="_blank" rel="noopener">
      {t('data.media.open', { name: media.name, type: media.content_type })}
    </a>
  );
}

/** Options of a select of the gallery's media ("None" first). */
export function mediaOptions(gallery: MediaResource[] | undefined, onlyImages = false) {
  const media = (gallery ?? []).filter((item) => !onlyImages || item.content_type.startsWith('image/'));
  return [{ value: '', label: t('data.media.none') }, ...media.map((item) => ({ value: item.id, label: item.name }))];
}

export function mediaId(data: FormData, name: string): number | null {
  const value = data.get(name);
  return typeof value === 'string' && value !== '' ? Number(value) : null;
}
