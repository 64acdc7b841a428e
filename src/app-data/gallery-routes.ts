// The media gallery (docs/app-data.md): /app/users/{id}/gallery/ lists and uploads,
// /app/media-resources/{id}/ reads, renames and deletes. Signed file downloads are in
// src/media/media-file-routes.ts.
import multipart from '@fastify/multipart';
import type { AppContext } from '../context.ts';
import type { App } from '../http/types.ts';
import { readUploadForm, uploadLimits } from '../media/media-upload.ts';
import { MediaResourceSchema } from '../media/media-view.ts';
import { NOT_ALLOWED } from './kernel/access.ts';
import { IdParams } from './kernel/field-schemas.ts';
import { MediaListSchema, MediaPatchBody, MediaPutBody, UploadFormSchema } from './gallery-schemas.ts';
import { getMedia, listGallery, removeMedia, updateMedia, uploadMedia } from './gallery-service.ts';
import type { Current } from './kernel/conditional-write.ts';
import { createdOnce } from './kernel/idempotent-create.ts';
import { accessorTerms, changeObject, onAppUser, onObject, registerDelete } from './kernel/route-helpers.ts';
import { errors } from '../http/error-schemas.ts';

const tags = ['media'];

/** Only the upload route accepts multipart/form-data: the parser is registered in its own scope. */
function registerUploadRoute(app: App, ctx: AppContext): void {
  app.register(async (scope: App) => {
    await scope.register(multipart, { limits: uploadLimits(ctx.config.mediaMaxBytes), throwFileSizeLimit: false });
    scope.post(
      '/app/users/:id/gallery/',
      {
        schema: {
          tags,
          summary: 'Upload a file to the gallery',
          description:
            'multipart/form-data with `name` and `file`. Images, PDF, audio and video are accepted, ' +
            'judged from the bytes; over MEDIA_MAX_BYTES: 413. Another content type: 415.',
          consumes: ['multipart/form-data'],
          body: UploadFormSchema,
          operationId: 'uploadMediaResource',
          response: {
            201: MediaResourceSchema,
            ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, idempotent: true }),
          },
        },
        // The body is a stream that the handler reads and checks itself (media/media-upload.ts
        // reads it, gallery-upload-fields.ts checks its fields); the schema above is there for
        // the OpenAPI document.
        validatorCompiler: () => () => true,
      },
      async (request, reply) =>
        createdOnce(
          ctx,
          request,
          reply,
          (terms) =>
            onAppUser(request as typeof request & { params: { id: string } }, 'write', (a, appUserId) =>
              uploadMedia(
                ctx,
                a,
                appUserId,
                () => readUploadForm(ctx, request),
                request.log,
                accessorTerms(request, a, 'media_resource', 'created', terms),
              ),
            ),
          { readsBody: true },
        ),
    );
  });
}

/** The detail as a GET answers it: what If-Match is checked against. */
const current: Current = { schema: MediaResourceSchema, read: getMedia };

export function registerGalleryRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/app/users/:id/gallery/',
    {
      schema: {
        tags,
        summary: "The app user's media resources, by id",
        description:
          'To an accessor without private profile access, a media resource shown only by image items in private ' +
          'profiles does not exist (absent here, 404 on its detail and file URL). One shown nowhere is listed to everyone.',
        params: IdParams,
        operationId: 'listMediaResources',
        response: { 200: MediaListSchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => onAppUser(request, 'read', (a, appUserId) => listGallery(ctx, a, appUserId)),
  );

  registerUploadRoute(app, ctx);

  app.get(
    '/app/media-resources/:id/',
    {
      schema: {
        tags,
        summary: 'A media resource',
        params: IdParams,
        operationId: 'getMediaResource',
        response: { 200: MediaResourceSchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => onObject(ctx, request, 'media_resource', 'read', (a, id) => getMedia(ctx, a, id)),
  );

  app.patch(
    '/app/media-resources/:id/',
    {
      schema: {
        tags,
        summary: 'Rename a media resource (the file cannot be replaced)',
        params: IdParams,
        body: MediaPatchBody,
        operationId: 'updateMediaResource',
        response: {
          200: MediaResourceSchema,
          ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, preconditionFailed: true }),
        },
      },
    },
    (request, reply) =>
      changeObject(ctx, request, reply, 'media_resource', current, (a, id, terms) => updateMedia(ctx, a, id, request.body, terms)),
  );

  app.put(
    '/app/media-resources/:id/',
    {
      schema: {
        tags,
        summary: 'Rename a media resource (name required)',
        params: IdParams,
        body: MediaPutBody,
        operationId: 'replaceMediaResource',
        response: {
          200: MediaResourceSchema,
          ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, preconditionFailed: true }),
        },
      },
    },
    (request, reply) =>
      changeObject(ctx, request, reply, 'media_resource', current, (a, id, terms) => updateMedia(ctx, a, id, request.body, terms)),
  );

  registerDelete(
    app,
    ctx,
    '/app/media-resources/:id/',
    'media_resource',
    { tags, operationId: 'deleteMediaResource', summary: 'Delete a media resource and its file; references to it become null' },
    current,
    (a, id, terms) => removeMedia(ctx, a, id, terms),
  );
}
