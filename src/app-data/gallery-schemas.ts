// Request shapes of the media gallery (docs/app-data.md). The response shape, MediaResourceSchema,
// lives in src/media/media-view.ts because items and emergency items embed it too.
import { Type, type Static } from 'typebox';
import { NAME_MAX_LENGTH, NameField } from './kernel/field-schemas.ts';
import { MediaResourceSchema } from '../media/media-view.ts';

export const MediaListSchema = Type.Array(MediaResourceSchema);

/** The text fields of an upload, checked once the multipart stream has been read. */
export const UploadFieldsSchema = Type.Object({ name: NameField });

export type UploadFields = Static<typeof UploadFieldsSchema>;

/** The whole upload form, as the OpenAPI document shows it. */
export const UploadFormSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH, description: 'What the file is called in the gallery' }),
  file: Type.String({
    format: 'binary',
    description: 'An image, PDF, audio or video file (judged from its bytes), at most MEDIA_MAX_BYTES.',
  }),
});

export const MediaPutBody = Type.Object({ name: NameField }, { examples: [{ name: 'Passport scan' }] });

export const MediaPatchBody = Type.Partial(MediaPutBody, { examples: [{ name: 'Passport scan (2026)' }] });

export type MediaChanges = Static<typeof MediaPatchBody>;
