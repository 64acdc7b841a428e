// /app/users/{id}/emergency-links/, /app/emergency-links/{id}/ and its views/ (docs/emergency-links.md):
// the owner's only. An accessor of the app user is 403 (access.ts), anyone else 404.
import { Type } from 'typebox';
import { IdParams } from '../app-data/kernel/field-schemas.ts';
import type { Current } from '../app-data/kernel/conditional-write.ts';
import { created } from '../app-data/kernel/idempotent-create.ts';
import { changeObject, onAppUser, onObject, registerDelete } from '../app-data/kernel/route-helpers.ts';
import { NO_TERMS } from '../app-data/kernel/write-terms.ts';
import type { AppContext } from '../context.ts';
import { errors } from '../http/error-schemas.ts';
import type { App } from '../http/types.ts';
import {
  CreatedEmergencyLinkSchema,
  EmergencyLinkBody,
  EmergencyLinkPatchBody,
  EmergencyLinkSchema,
  LinkViewSchema,
} from './emergency-link-schemas.ts';
import {
  changeEmergencyLink,
  createEmergencyLink,
  getEmergencyLink,
  listEmergencyLinkViews,
  listUserEmergencyLinks,
  removeEmergencyLink,
} from './emergency-link-service.ts';

const tags = ['emergency links'];

/** The link as a GET answers it: what If-Match is checked against. */
const current: Current = { schema: EmergencyLinkSchema, read: getEmergencyLink };

/** The 403 of every route here, as the document describes it. */
const OWNER_ONLY = 'An accessor of the app user: emergency links are its owner’s only (docs/sharing.md)';

export function registerEmergencyLinkRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/app/users/:id/emergency-links/',
    {
      schema: {
        tags,
        summary: "An app user's emergency links (never their tokens)",
        params: IdParams,
        operationId: 'listEmergencyLinks',
        response: { 200: Type.Array(EmergencyLinkSchema), ...errors({ auth: true, forbidden: OWNER_ONLY, notFound: true }) },
      },
    },
    (request) => onAppUser(request, 'owner', (a, appUserId) => listUserEmergencyLinks(ctx, a, appUserId)),
  );

  app.post(
    '/app/users/:id/emergency-links/',
    {
      schema: {
        tags,
        summary: 'Create an emergency link',
        description:
          'The answer holds `link`, the public URL, this once: the service keeps only a hash of its token. Without `expires_at` the link works one year; `null`: for ever.',
        params: IdParams,
        body: EmergencyLinkBody,
        operationId: 'createEmergencyLink',
        response: { 201: CreatedEmergencyLinkSchema, ...errors({ auth: true, forbidden: OWNER_ONLY, notFound: true, body: true }) },
      },
    },
    async (request, reply) =>
      created(reply, await onAppUser(request, 'owner', (a, appUserId) => createEmergencyLink(ctx, a, appUserId, request.body, NO_TERMS))),
  );

  app.get(
    '/app/emergency-links/:id/',
    {
      schema: {
        tags,
        summary: 'An emergency link',
        params: IdParams,
        operationId: 'getEmergencyLink',
        response: { 200: EmergencyLinkSchema, ...errors({ auth: true, forbidden: OWNER_ONLY, notFound: true }) },
      },
    },
    (request) => onObject(ctx, request, 'emergency_link', 'owner', (a, id) => getEmergencyLink(ctx, a, id)),
  );

  app.patch(
    '/app/emergency-links/:id/',
    {
      schema: {
        tags,
        summary: 'Change the label, expiry or PIN of an emergency link',
        description: '`pin: null` removes the PIN. A new PIN, or none, lifts a lock-out after wrong PINs.',
        params: IdParams,
        body: EmergencyLinkPatchBody,
        operationId: 'updateEmergencyLink',
        response: {
          200: EmergencyLinkSchema,
          ...errors({ auth: true, forbidden: OWNER_ONLY, notFound: true, body: true, preconditionFailed: true }),
        },
      },
    },
    (request, reply) =>
      changeObject(
        ctx,
        request,
        reply,
        'emergency_link',
        current,
        (a, id, terms) => changeEmergencyLink(ctx, a, id, request.body, terms),
        'owner',
      ),
  );

  registerDelete(
    app,
    ctx,
    '/app/emergency-links/:id/',
    'emergency_link',
    {
      tags,
      operationId: 'deleteEmergencyLink',
      summary: 'Revoke an emergency link: it answers 404 from the next request, and its views go',
    },
    current,
    (a, id, terms) => removeEmergencyLink(ctx, a, id, terms),
    'owner',
  );

  app.get(
    '/app/emergency-links/:id/views/',
    {
      schema: {
        tags,
        summary: 'The views of an emergency link, newest first (the last 90 days, at most 1,000)',
        params: IdParams,
        operationId: 'listEmergencyLinkViews',
        response: { 200: Type.Array(LinkViewSchema), ...errors({ auth: true, forbidden: OWNER_ONLY, notFound: true }) },
      },
    },
    (request) => onObject(ctx, request, 'emergency_link', 'owner', (a, id) => listEmergencyLinkViews(ctx, a, id)),
  );
}
