// The console's webhooks (docs/webhooks.md): the endpoints, adding one (its secret shown once),
// and one endpoint's page (?webhook=<id>): change it, enable or disable it, rotate its secret,
// send a test event, delete it, and its deliveries with a retry for those not delivered.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { Field, Form, Submit, text } from '../../components/form.tsx';
import { Hidden, Loading, Page, Status } from '../../components/page.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useStatusLine } from '../../status-line.tsx';
import { AdminNav, when } from './admin-nav.tsx';

const EVENTS = [
  ['account.created', 'Account created'],
  ['account.verified', 'First address verified'],
  ['account.email_changed', 'Primary address changed'],
  ['account.disabled', 'Account disabled'],
  ['account.enabled', 'Account enabled'],
  ['account.deleted', 'Account deleted'],
  ['account.second_factor_changed', 'Second factor changed'],
] as const;

/** The events ticked in the form: every one, or those ticked. */
function eventsOf(data: FormData): string[] {
  if (data.get('all') === 'on') return ['*'];
  return data.getAll('events').map(String);
}

function EventChoice({ form, chosen }: { form: string; chosen: string[] }) {
  const all = chosen.includes('*');
  return (
    <fieldset class="field">
      <legend>Events</legend>
      <div class="check">
        <input id={`${form}-all`} name="all" type="checkbox" defaultChecked={all} />
        <label for={`${form}-all`}>Every event</label>
      </div>
      {EVENTS.map(([type, label]) => (
        <div class="check" key={type}>
          <input id={`${form}-${type}`} name="events" value={type} type="checkbox" defaultChecked={!all && chosen.includes(type)} />
          <label for={`${form}-${type}`}>
            {label} <code>{type}</code>
          </label>
        </div>
      ))}
    </fieldset>
  );
}

function Secret({ secret }: { secret: string }) {
  return (
    <div class="secret" role="status">
      <p>The signing secret, shown this once: give it to the receiver now (it verifies each event with it).</p>
      <p>
        <code>{secret}</code>
      </p>
    </div>
  );
}

export function AdminWebhooks() {
  const list = useLoad(() => api.GET('/admin/webhooks/'));
  const action = useAction();
  const [secret, setSecret] = useState<string | null>(null);

  async function add(data: FormData, form: HTMLFormElement) {
    const description = text(data, 'description').trim();
    const done = await action.run(() =>
      api.POST('/admin/webhooks/', {
        body: { url: text(data, 'url').trim(), events: eventsOf(data), ...(description ? { description } : {}) },
      }),
    );
    if (!done) return;
    setSecret(done.data.secret);
    form.reset();
    list.reload();
  }

  return (
    <Page title="Webhooks">
      <AdminNav />
      <Status />
      {secret && <Secret secret={secret} />}
      {list.data ? (
        list.data.length === 0 ? (
          <p>No endpoint hears the service's events yet.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <caption>Endpoints</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col">Last success</th>
                  <th scope="col">Failing since</th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((endpoint) => (
                  <tr key={endpoint.id}>
                    <td class="address">
                      <a href={`/admin?webhook=${endpoint.id}`}>{endpoint.url}</a>
                      {endpoint.description && <> — {endpoint.description}</>}
                    </td>
                    <td>{endpoint.events.join(', ')}</td>
                    <td>{endpoint.enabled ? 'Enabled' : 'Disabled'}</td>
                    <td>{when(endpoint.last_success_at)}</td>
                    <td>{when(endpoint.failing_since)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : (
        <Loading />
      )}
      <h2>Add an endpoint</h2>
      <Form id="add-webhook" action={action} label="Add an endpoint" onSubmit={add}>
        <Field name="url" label="URL" hint="https:// to a public address" required />
        <Field name="description" label="Description (optional)" />
        <EventChoice form="add-webhook" chosen={[]} />
        <Submit action={action}>Add endpoint</Submit>
      </Form>
    </Page>
  );
}

export function AdminWebhook({ id }: { id: number }) {
  const endpoint = useLoad(() => api.GET('/admin/webhooks/{id}/', { params: { path: { id } } }), id);
  const deliveries = useLoad(() => api.GET('/admin/webhooks/{id}/deliveries/', { params: { path: { id }, query: {} } }), id);
  const action = useAction();
  const status = useStatusLine();
  const [secret, setSecret] = useState<string | null>(null);
  const [deleted, setDeleted] = useState(false);
  const path = { params: { path: { id } } };

  function reload() {
    endpoint.reload();
    deliveries.reload();
  }

  async function change(data: FormData) {
    const done = await action.run(() =>
      api.PATCH('/admin/webhooks/{id}/', {
        ...path,
        body: { url: text(data, 'url').trim(), description: text(data, 'description').trim(), events: eventsOf(data) },
      }),
    );
    if (done) {
      status.say('The endpoint is changed.');
      reload();
    }
  }

  async function setEnabled(enabled: boolean) {
    if (await action.run(() => api.PATCH('/admin/webhooks/{id}/', { ...path, body: { enabled } }))) {
      status.say(enabled ? 'The endpoint is enabled: its waiting events go now.' : 'The endpoint is disabled: its events wait.');
      reload();
    }
  }

  async function rotate() {
    const done = await action.run(() => api.POST('/admin/webhooks/{id}/rotate-secret/', path));
    if (done) {
      setSecret(done.data.secret);
      status.say('A new secret: the old one keeps signing beside it for 24 hours.');
    }
  }

  async function test() {
    if (await action.run(() => api.POST('/admin/webhooks/{id}/test/', path))) {
      status.say('A test event is on its way.');
      deliveries.reload();
    }
  }

  async function remove() {
    if (await action.run(() => api.DELETE('/admin/webhooks/{id}/', path))) setDeleted(true);
  }

  async function retry(deliveryId: number) {
    if (
      await action.run(() =>
        api.POST('/admin/webhooks/{id}/deliveries/{delivery_id}/retry/', { params: { path: { id, delivery_id: deliveryId } } }),
      )
    ) {
      status.say(`Delivery ${deliveryId} is tried again.`);
      reload();
    }
  }

  if (deleted) {
    return (
      <Page title="Endpoint deleted">
        <AdminNav />
        <p>
          <a href="/admin?view=webhooks">Back to the webhooks</a>
        </p>
      </Page>
    );
  }
  if (endpoint.notFound) {
    return (
      <Page title="No such endpoint">
        <AdminNav />
        <p>There is no endpoint with this id: it may have been deleted.</p>
      </Page>
    );
  }
  const shown = endpoint.data;
  if (!shown) return <Loading />;
  return (
    <Page title={shown.url}>
      <AdminNav />
      <Status />
      {secret && <Secret secret={secret} />}
      <div role="alert" class="alert">
        {action.problems.general.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
      <dl class="facts">
        <dt>State</dt>
        <dd>{shown.enabled ? 'Enabled' : 'Disabled'}</dd>
        <dt>Created</dt>
        <dd>{when(shown.created_at)}</dd>
        <dt>Last success</dt>
        <dd>{when(shown.last_success_at)}</dd>
        <dt>Last failure</dt>
        <dd>{when(shown.last_failure_at)}</dd>
        <dt>Failing since</dt>
        <dd>{when(shown.failing_since)}</dd>
      </dl>
      <p class="actions">
        <button type="button" disabled={action.busy} onClick={() => setEnabled(!shown.enabled)}>
          {shown.enabled ? 'Disable endpoint' : 'Enable endpoint'}
        </button>
        <button type="button" disabled={action.busy || !shown.enabled} onClick={test}>
          Send a test event
        </button>
        <button type="button" disabled={action.busy} onClick={rotate}>
          Rotate the secret
        </button>
        <ConfirmButton question={`Delete the endpoint ${shown.url} and its deliveries?`} confirm="Yes, delete it" onConfirm={remove}>
          Delete endpoint
        </ConfirmButton>
      </p>
      <h2>Change</h2>
      <Form id="change-webhook" action={action} label="Change the endpoint" onSubmit={change}>
        <Field name="url" label="URL" defaultValue={shown.url} required />
        <Field name="description" label="Description" defaultValue={shown.description} />
        <EventChoice form="change-webhook" chosen={shown.events} />
        <Submit action={action}>Save</Submit>
      </Form>
      <h2>Deliveries</h2>
      {deliveries.data ? (
        deliveries.data.length === 0 ? (
          <p>No event was sent to this endpoint in the last 30 days.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <caption>Newest first, kept 30 days</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Type</th>
                  <th scope="col">State</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last answer</th>
                  <th scope="col">Next attempt</th>
                  <th scope="col">
                    <Hidden>Actions</Hidden>
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>
                      <code>{delivery.event_id}</code>
                    </td>
                    <td>{delivery.type}</td>
                    <td>{delivery.state}</td>
                    <td>{delivery.attempts}</td>
                    <td>{delivery.last_error ?? (delivery.last_status === null ? '—' : String(delivery.last_status))}</td>
                    <td>{when(delivery.next_attempt_at)}</td>
                    <td>
                      {delivery.state !== 'delivered' && (
                        <button type="button" disabled={action.busy} onClick={() => retry(delivery.id)}>
                          Retry<Hidden> delivery {delivery.id}</Hidden>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : (
        <Loading />
      )}
    </Page>
  );
}
