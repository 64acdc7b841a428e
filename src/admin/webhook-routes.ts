// /admin/webhooks/… (docs/webhooks.md): operators' webhook endpoints and their deliveries,
// behind the operator gate as every /admin/ route (to anyone but an operator, an unknown path).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { invalid, message } from '../errors.ts';
import { errors } from '../http/error-schemas.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { operatorGate, operatorOf } from './operator-gate.ts';
import {
  DeliveriesQuery,
  DeliveryIdParams,
  NewWebhookBody,
  WebhookChangesBody,
  WebhookDeliveryListSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookIdParams,
  WebhookTestSchema,
} from './webhook-schemas.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  MAX_DELIVERIES,
  retryDelivery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
} from './webhook-service.ts';

const tags = ['operators'];
const FORBIDDEN =
  'The caller is an operator whose session was not opened with two factors (the password and a TOTP or recovery code, or a passkey), or whose account has no second factor: sign in again with one';
const NOT_FOUND = { notFound: true } as const;

function deliveriesLimit(raw: string | undefined): number {
  if (raw === undefined) return 100;
  const limit = /^\d{1,3}$/.test(raw) ? Number(raw) : 0;
  if (limit < 1 || limit > MAX_DELIVERIES) throw invalid({ limit: [message('validation.wholeNumberUpTo', { max: MAX_DELIVERIES })] });
  return limit;
}

export function registerWebhookRoutes(app: App, ctx: AppContext): void {
  const config = { auth: 'hidden' as const };
  const onRequest = operatorGate(ctx);
  const actor = (request: Parameters<typeof operatorOf>[0]) => ({ via: 'api' as const, operatorId: operatorOf(request) });

  app.get(
    '/admin/webhooks/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Operators: the webhook endpoints (never their secrets)',
        operationId: 'adminListWebhooks',
        response: { 200: WebhookEndpointListSchema, ...errors({ forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    () => listWebhooks(ctx),
  );

  app.post(
    '/admin/webhooks/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Operators: add a webhook endpoint; its signing secret is in this answer only',
        body: NewWebhookBody,
        operationId: 'adminCreateWebhook',
        response: { 201: WebhookEndpointWithSecretSchema, ...errors({ body: true, forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    async (request, reply) => {
      const endpoint = await createWebhook(ctx, actor(request), request.body);
      return reply.code(201).header('Location', `${ctx.config.publicUrl}/admin/webhooks/${endpoint.id}/`).send(endpoint);
    },
  );

  app.get(
    '/admin/webhooks/:id/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Operators: one webhook endpoint',
        params: WebhookIdParams,
        operationId: 'adminGetWebhook',
        response: { 200: WebhookEndpointSchema, ...errors({ forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    (request) => getWebhook(ctx, parseId(request.params.id)),
  );

  app.patch(
    '/admin/webhooks/:id/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Operators: change a webhook endpoint (URL, events, description, enabled)',
        params: WebhookIdParams,
        body: WebhookChangesBody,
        operationId: 'adminUpdateWebhook',
        response: { 200: WebhookEndpointSchema, ...errors({ body: true, forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    (request) => updateWebhook(ctx, actor(request), parseId(request.params.id), request.body),
  );

  app.delete(
    '/admin/webhooks/:id/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Operators: delete a webhook endpoint and its deliveries',
        params: WebhookIdParams,
        operationId: 'adminDeleteWebhook',
        response: { 204: Type.Null(), ...errors({ forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    async (request, reply) => {
      await deleteWebhook(ctx, actor(request), parseId(request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/webhooks/:id/rotate-secret/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Operators: a new signing secret (in this answer only); the old one keeps signing beside it for 24 hours',
        params: WebhookIdParams,
        operationId: 'adminRotateWebhookSecret',
        response: { 200: WebhookEndpointWithSecretSchema, ...errors({ forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    (request) => rotateWebhookSecret(ctx, actor(request), parseId(request.params.id)),
  );

  app.post(
    '/admin/webhooks/:id/test/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Operators: send a webhook.test event to the endpoint (delivered as any event: signed, retried)',
        params: WebhookIdParams,
        operationId: 'adminTestWebhook',
        response: { 202: WebhookTestSchema, ...errors({ invalid: true, forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    async (request, reply) => reply.code(202).send(await testWebhook(ctx, actor(request), parseId(request.params.id))),
  );

  app.get(
    '/admin/webhooks/:id/deliveries/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: "Operators: the endpoint's deliveries, newest first (kept 30 days; no payload)",
        params: WebhookIdParams,
        querystring: DeliveriesQuery,
        operationId: 'adminWebhookDeliveries',
        response: { 200: WebhookDeliveryListSchema, ...errors({ invalid: true, forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    (request) => listDeliveries(ctx, parseId(request.params.id), deliveriesLimit(request.query.limit)),
  );

  app.post(
    '/admin/webhooks/:id/deliveries/:delivery_id/retry/',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: 'Operators: have a delivery tried at once (a failed one is retried for 3 more days); a delivered one: 400',
        params: DeliveryIdParams,
        operationId: 'adminRetryWebhookDelivery',
        response: { 204: Type.Null(), ...errors({ invalid: true, forbidden: FORBIDDEN, ...NOT_FOUND }) },
      },
    },
    async (request, reply) => {
      await retryDelivery(ctx, actor(request), parseId(request.params.id), parseId(request.params.delivery_id));
      return reply.code(204).send(null);
    },
  );
}
