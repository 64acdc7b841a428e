// The operators' webhook answers and bodies (docs/webhooks.md): endpoints and their deliveries,
// never a payload.
import { Type, type Static } from 'typebox';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../db/schema.ts';

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const DateTime = Type.String({ format: 'date-time' });

export const EVENTS_DESCRIPTION =
  'Event types: account.created, account.verified, account.email_changed, account.disabled, account.enabled, account.deleted, account.second_factor_changed; or ["*"] for all';

export const WebhookEndpointSchema = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String(), { description: EVENTS_DESCRIPTION }),
  description: Type.String(),
  enabled: Type.Boolean(),
  created_at: DateTime,
  last_success_at: Type.Union([DateTime, Type.Null()], { description: 'The last delivery answered with a 2xx (null: none yet)' }),
  last_failure_at: Type.Union([DateTime, Type.Null()], { description: 'The last failed attempt (null: none)' }),
  failing_since: Type.Union([DateTime, Type.Null()], {
    description: 'The first failed attempt since the last success (null: not failing); 5 days of it disable the endpoint',
  }),
});
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

export const WebhookEndpointListSchema = Type.Array(WebhookEndpointSchema);

export const WebhookEndpointWithSecretSchema = Type.Object({
  ...WebhookEndpointSchema.properties,
  secret: Type.String({ description: 'whsec_ + base64 of 32 random bytes: shown in this answer only' }),
});
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecretSchema>;

const Url = Type.String({
  maxLength: 2000,
  description: 'https:// to a public address (http:// and private addresses only with WEBHOOK_ALLOW_PRIVATE=true)',
});
const Events = Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 20, description: EVENTS_DESCRIPTION });
const Description = Type.String({ maxLength: 500 });

export const NewWebhookBody = Type.Object(
  {
    url: Url,
    events: Events,
    description: Type.Optional(Description),
    enabled: Type.Optional(
      Type.Boolean({
        description: 'Default true. false: made paused, its events wait until it is enabled (to hand the secret over first)',
      }),
    ),
  },
  { examples: [{ url: 'https://crm.example.com/hooks/profile', events: ['account.created', 'account.deleted'] }] },
);
export type NewWebhookBody = Static<typeof NewWebhookBody>;

export const WebhookChangesBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean()),
  },
  { description: 'Only the fields given change', examples: [{ events: ['*'], description: 'CRM: every account event' }] },
);
export type WebhookChangesBody = Static<typeof WebhookChangesBody>;

export const WebhookIdParams = Type.Object({ id: Type.String() });
export const DeliveryIdParams = Type.Object({ id: Type.String(), delivery_id: Type.String() });

export const WebhookTestSchema = Type.Object({
  id: Type.Integer({ description: "The test event's delivery (see the deliveries list)" }),
  event_id: Type.String({ description: 'Its webhook-id' }),
});

export const DeliveriesQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'How many deliveries, newest first: 1 to 500 (default 100)' })),
});

export const WebhookDeliverySchema = Type.Object({
  id: Type.Integer(),
  event_id: Type.String({ description: 'The webhook-id header: the same on every attempt' }),
  type: Type.String(),
  attempts: Type.Integer(),
  state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  last_status: Type.Union([Type.Integer(), Type.Null()], {
    description: "The receiver's last HTTP status (null: no answer, or not tried yet)",
  }),
  last_error: Type.Union([Type.String(), Type.Null()]),
  next_attempt_at: Type.Union([DateTime, Type.Null()], { description: 'When a pending delivery is tried next' }),
  created_at: DateTime,
});
export const WebhookDeliveryListSchema = Type.Array(WebhookDeliverySchema);
export type WebhookDeliveryList = Static<typeof WebhookDeliveryListSchema>;

type EndpointRow = Pick<
  WebhookEndpointsTable,
  'url' | 'events' | 'description' | 'enabled' | 'created_at' | 'last_success_at' | 'last_failure_at' | 'failing_since'
> & { id: number };

export function toWebhookEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    enabled: Number(row.enabled) === 1,
    created_at: iso(row.created_at)!,
    last_success_at: iso(row.last_success_at),
    last_failure_at: iso(row.last_failure_at),
    failing_since: iso(row.failing_since),
  };
}

type DeliveryRow = Pick<
  WebhookDeliveriesTable,
  'event_id' | 'type' | 'attempts' | 'state' | 'last_status' | 'last_error' | 'next_attempt_at' | 'created_at'
> & { id: number };

export function toWebhookDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    event_id: row.event_id,
    type: row.type,
    attempts: row.attempts,
    state: row.state,
    last_status: row.last_status,
    last_error: row.last_error,
    next_attempt_at: row.state === 'pending' ? iso(row.next_attempt_at) : null,
    created_at: iso(row.created_at)!,
  };
}
