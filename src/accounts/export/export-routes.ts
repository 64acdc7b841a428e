// GET /account/export/ (docs/accounts.md): everything the account holds, as a ZIP archive.
import { callerOf } from '../../auth/token-auth.ts';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/types.ts';
import { ExportLimit } from './export-limit.ts';
import { ExportSlots } from './export-slots.ts';
import { ExportArchiveResponse } from './export-schemas.ts';
import { exportAccount } from './export-service.ts';
import { errors } from '../../http/error-schemas.ts';

export function registerExportRoutes(app: App, ctx: AppContext): void {
  const limit = new ExportLimit(ctx.config.rateLimits, ctx.counters, ctx.clock);
  const slots = new ExportSlots(ctx.config.exportsAtOnce);
  // HEAD is declared rather than left to Fastify's automatic HEAD routes, which would run a
  // whole export (and count it) to throw the archive away.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/account/export/',
    schema: {
      tags: ['account'],
      summary: 'Download everything the account holds as a ZIP archive: account.json and the media files',
      description:
        'Streamed as it is written. account.json (format "profile-service-export", version 1) holds the account, its e-mail addresses, sessions, passkeys (no key material) and app users with everything below them, in the API\'s read shapes without URL fields; each media file is stored at the `path` of its media resource (null when the file was deleted while the export ran). At most RATE_LIMIT_EXPORTS_PER_ACCOUNT exports per account (default 5 an hour), then 429 with Retry-After; at most EXPORTS_AT_ONCE running at once on a server, then 503 with Retry-After (not counted). HEAD says whether one would be allowed, counting nothing.',
      produces: ['application/zip'],
      operationId: 'exportAccount',
      response: { 200: ExportArchiveResponse, ...errors({ auth: true, rateLimited: true }) },
    },
    handler: async (request, reply) => {
      const download = await exportAccount(ctx, limit, slots, callerOf(request), request.method === 'HEAD');
      reply.headers({
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${download.fileName}"`,
      });
      // A stream is sent as it is; the response schema only documents the body as binary.
      return reply.send(download.archive as never);
    },
  });
}
