// Field schemas shared by the personal-data resources (docs/app-data.md lengths).
import { Type, type TSchema } from 'typebox';
import { MediaResourceSchema } from '../../media/media-view.ts';

export const NAME_MAX_LENGTH = 255;
export const TEXT_MAX_LENGTH = 10_000;

export const IdParams = Type.Object({ id: Type.String({ description: 'A positive integer id' }) });

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** A required name: not blank (strings arrive trimmed), at most 255 characters. */
export const NameField = Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH });

/** Descriptions and the quote: may be empty, at most 10,000 characters. */
export const LongTextField = Type.String({ maxLength: TEXT_MAX_LENGTH });

/** On write a media resource is referred to by id; it must belong to the same app user. */
export const MediaIdField = Nullable(
  Type.Integer({ description: 'Id of a media resource in the same app user’s gallery (upload it there first), or null' }),
);

/**
 * The media object of docs/app-data.md without MediaResourceSchema's $id: a response that embeds it
 * twice (an image content's image_resource and media_resource) cannot be compiled with the $id.
 */
export const MediaObjectSchema = Type.Object(MediaResourceSchema.properties);

export const Url = Type.String({ format: 'uri' });
