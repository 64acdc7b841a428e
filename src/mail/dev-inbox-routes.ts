// GET /dev/mail/messages/: the development inbox (dev-inbox.ts), registered only when it is
// on, so that anywhere else the path is the API's plain 404, as it is to a request whose Host
// is not a loopback name. Left out of /openapi.json: it is no part of the API a client
// programs against.
import { Type } from 'typebox';
import type { Config } from '../config.ts';
import { notFound } from '../errors.ts';
import { toLoopbackHost } from '../http/loopback.ts';
import type { App } from '../http/types.ts';
import { readDevInbox } from './dev-inbox.ts';

const SHOWN = 100;

const DevMailSchema = Type.Object({
  id: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  sent_at: Type.String(),
  text: Type.String(),
  links: Type.Array(Type.String()),
});

export function registerDevInboxRoutes(app: App, config: Config): void {
  app.get(
    '/dev/mail/messages/',
    { config: { auth: 'none' }, schema: { hide: true, response: { 200: Type.Array(DevMailSchema) } } },
    async (request, reply) => {
      if (!toLoopbackHost(request)) throw notFound();
      reply.header('cache-control', 'no-store');
      return readDevInbox(config.mailDir, SHOWN);
    },
  );
}
