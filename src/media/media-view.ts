// The media resource as clients see it (docs/app-data.md), used wherever media appears:
// the gallery, items' image content, emergency items.
import { Type, type Static } from 'typebox';
import type { AppContext } from '../context.ts';
import { expiryFor, signedFileUrl } from './signed-urls.ts';

export const MediaResourceSchema = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    name: Type.String(),
    file: Type.String({ description: 'Signed URL that downloads the bytes without a token; expires (MEDIA_URL_TTL).' }),
    content_type: Type.String(),
    size: Type.Integer(),
  },
  { $id: 'MediaResource' },
);

export type MediaResource = Static<typeof MediaResourceSchema>;

export interface MediaRow {
  id: number;
  name: string;
  storage_key: string;
  content_type: string;
  size: number;
}

export function mediaUrl(ctx: AppContext, id: number): string {
  return `${ctx.config.publicUrl}/app/media-resources/${id}/`;
}

/**
 * For whom a media file URL is signed: an accessor's URLs carry its id, and stop working when its
 * access ends (a request's decided access, app-data/kernel/access.ts, is one); `OWNER_URLS` for the owner.
 */
export interface SignedFor {
  accessorId: number | null;
}

export const OWNER_URLS: SignedFor = Object.freeze({ accessorId: null });

export function toMediaResource(ctx: AppContext, signedFor: SignedFor, row: MediaRow): MediaResource {
  const expires = expiryFor(ctx.clock.now(), ctx.config.mediaUrlTtlMs);
  return {
    id: row.id,
    url: mediaUrl(ctx, row.id),
    name: row.name,
    file: signedFileUrl(ctx.config.publicUrl, ctx.secrets.mediaUrl, row.storage_key, expires, signedFor.accessorId ?? undefined),
    content_type: row.content_type,
    size: row.size,
  };
}
