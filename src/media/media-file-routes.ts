// GET (and HEAD) /media/files/{storage_key}?expires=…&signature=… : the bytes of a stored
// file. No token: the signed URL is the credential (signed-urls.ts). A bad signature, an
// unknown key, a deleted file or an accessor's URL whose access has ended (revoked, or the file
// now used only in private profiles they may not see): 404, as for any object the caller may
// not see. A correctly signed but expired URL: 410, so a client knows to fetch the media
// resource again.
import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { HttpError } from '../http/errors.ts';
import type { App } from '../http/types.ts';
import { parseByteRange } from './byte-range.ts';
import { contentDisposition } from './content-disposition.ts';
import { accessorSees, findMediaByStorageKey } from './media-queries.ts';
import { FileParams, FileQuery, FileResponse } from './media-file-schemas.ts';
import { checkSignature, MEDIA_FILE_PATH } from './signed-urls.ts';
import { extensionOf, isStorageKey } from '../storage/storage-keys.ts';
import { errors } from '../http/error-schemas.ts';

function expired(): HttpError {
  return new HttpError(410, 'media.linkExpired');
}

export function registerMediaFileRoutes(app: App, ctx: AppContext): void {
  // HEAD is declared rather than left to Fastify's automatic HEAD routes, which would read
  // the whole file to throw it away.
  app.route({
    method: ['GET', 'HEAD'],
    url: `${MEDIA_FILE_PATH}/:storage_key`,
    config: { auth: 'none' },
    schema: {
      tags: ['media'],
      summary: 'Download a stored file through its signed URL (the `file` of a media resource)',
      description: 'Needs no token. Supports HEAD and single byte ranges. Bad signature or unknown file: 404; expired link: 410.',
      security: [],
      params: FileParams,
      querystring: FileQuery,
      produces: ['application/octet-stream'],
      operationId: 'downloadMediaFile',
      response: {
        200: FileResponse,
        206: FileResponse,
        ...errors({
          notFound: true,
          invalid: true,
          gone: 'The signed link has expired: fetch the media resource again for a new one',
          rangeNotSatisfiable: 'The requested range is outside the file (with Content-Range)',
        }),
      },
    },
    handler: async (request, reply) => {
      const storageKey = request.params.storage_key;
      if (!isStorageKey(storageKey)) throw notFound();
      const now = ctx.clock.now();
      const { expires, signature, accessor } = request.query;
      const check = checkSignature(ctx.secrets.mediaUrl, storageKey, expires, signature, now, accessor);
      if (check === 'invalid') throw notFound();
      if (check === 'expired') throw expired();
      const media = await findMediaByStorageKey(ctx.db.kysely, storageKey);
      if (!media) throw notFound();
      if (accessor !== undefined && !(await accessorSees(ctx.db.kysely, Number(accessor), media, ctx.clock.now()))) throw notFound();

      // Validators are not sent, so a conditional range (If-Range) always gets the whole file.
      const range = request.headers['if-range'] === undefined ? parseByteRange(request.headers.range, media.size) : undefined;
      if (range === 'unsatisfiable') {
        throw new HttpError(416, 'media.rangeOutside', { 'Content-Range': `bytes */${media.size}` });
      }
      // HEAD asks the store whether the object is there; it never starts reading it (from S3
      // that would be a GET of the whole object, broken off).
      const head = request.method === 'HEAD';
      const stream = head ? undefined : await ctx.media.open(storageKey, range);
      if (head ? !(await ctx.media.exists(storageKey)) : !stream) {
        request.log.error({ storageKey }, 'a media resource has no stored file');
        throw notFound();
      }

      const secondsLeft = Math.max(0, Math.floor((Number(request.query.expires) * 1000 - now) / 1000));
      reply.headers({
        'Content-Type': media.content_type,
        'Content-Length': String(range ? range.end - range.start + 1 : media.size),
        'Content-Disposition': contentDisposition(media.content_type, media.name, extensionOf(storageKey)),
        'Cache-Control': `private, max-age=${secondsLeft}`,
        'X-Content-Type-Options': 'nosniff',
        // Opened directly in a browser, the file runs no script, whatever it contains.
        'Content-Security-Policy': 'sandbox',
        'Accept-Ranges': 'bytes',
      });
      if (range) reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${media.size}`);
      // The response schema documents the body as binary; a stream is sent as it is, unserialised.
      return reply.send(stream as never);
    },
  });
}
