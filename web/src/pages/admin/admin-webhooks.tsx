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
import { type MessageKey, t } from '../../i18n/language.ts';
import { Named } from '../../components/rich-text.tsx';

const EVENTS: [string, MessageKey][] = [
  ['account.created', 'admin.webhooks.event.created'],
  ['account.verified', 'admin.webhooks.event.verified'],
  ['account.email_changed', 'admin.webhooks.event.emailChanged'],
  ['account.disabled', 'admin.webhooks.event.disabled'],
  ['account.enabled', 'admin.webhooks.event.enabled'],
  ['account.deleted', 'admin.webhooks.event.deleted'],
  ['account.second_factor_changed', 'admin.webhooks.event.secondFactorChanged'],
];

/** The events ticked in the form: every one, or those ticked. */
function eventsOf(data: FormData): string[] {
  if (data.get('all') === 'on') return ['*'];
  return data.getAll('events').map(String);
}

function EventChoice({ form, chosen }: { form: string; chosen: string[] }) {
  const all = chosen.includes('*');
  return (
    <fieldset class="field">
      <legend>{t('admin.webhooks.events')}</legend>
      <div class="field check">
        <input id={`${form}-all`} name="all" type="checkbox" defaultChecked={all} />
        <label for={`${form}-all`}>{t('admin.webhooks.everyEvent')}</label>
      </div>
      {EVENTS.map(([type, label]) => (
        <div class="field check" key={type}>
          <input id={`${form}-${type}`} name="events" value={type} type="checkbox" defaultChecked={!all && chosen.includes(type)} />
          <label for={`${form}-${type}`}>
            {t(label)} <code>{type}</code>
          </label>
        </div>
      ))}
    </fieldset>
  );
}

function Secret({ secret }: { secret: string }) {
  return (
    <div class="secret" role="status">
      <p>{t('admin.webhooks.secret')}</p>
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
    <Page title={t('admin.nav.webhooks')}>
      <AdminNav />
      <Status />
      {secret && <Secret secret={secret} />}
      {list.data ? (
        list.data.length === 0 ? (
          <p>{t('admin.webhooks.none')}</p>
        ) : (
          <div class="table-wrap">
            <table class="webhooks">
              <caption>{t('admin.webhooks.endpoints')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('admin.webhooks.url')}</th>
                  <th scope="col">{t('admin.webhooks.events')}</th>
                  <th scope="col">{t('admin.state')}</th>
                  <th scope="col">{t('admin.webhooks.lastSuccess')}</th>
                  <th scope="col">{t('admin.webhooks.failingSince')}</th>
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
                    <td>{endpoint.enabled ? t('admin.webhooks.enabled') : t('admin.webhooks.disabled')}</td>
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
      <h2>{t('admin.webhooks.add')}</h2>
      <Form id="add-webhook" action={action} label={t('admin.webhooks.add')} onSubmit={add}>
        <Field name="url" label={t('admin.webhooks.url')} hint={t('admin.webhooks.urlHint')} required />
        <Field name="description" label={t('admin.webhooks.descriptionOptional')} />
        <EventChoice form="add-webhook" chosen={[]} />
        <Submit action={action}>{t('admin.webhooks.addButton')}</Submit>
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
      status.say(t('admin.webhooks.changed'));
      reload();
    }
  }

  async function setEnabled(enabled: boolean) {
    if (await action.run(() => api.PATCH('/admin/webhooks/{id}/', { ...path, body: { enabled } }))) {
      status.say(enabled ? t('admin.webhooks.nowEnabled') : t('admin.webhooks.nowDisabled'));
      reload();
    }
  }

  async function rotate() {
    const done = await action.run(() => api.POST('/admin/webhooks/{id}/rotate-secret/', path));
    if (done) {
      setSecret(done.data.secret);
      status.say(t('admin.webhooks.rotated'));
    }
  }

  async function test() {
    if (await action.run(() => api.POST('/admin/webhooks/{id}/test/', path))) {
      status.say(t('admin.webhooks.testSent'));
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
      status.say(t('admin.webhooks.retried', { id: deliveryId }));
      reload();
    }
  }

  if (deleted) {
    return (
      <Page title={t('admin.webhooks.deletedTitle')}>
        <AdminNav />
        <p>
          <a href="/admin?view=webhooks">{t('admin.webhooks.back')}</a>
        </p>
      </Page>
    );
  }
  if (endpoint.notFound) {
    return (
      <Page title={t('admin.webhooks.noSuch')}>
        <AdminNav />
        <p>{t('admin.webhooks.noSuchExplain')}</p>
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
        <dt>{t('admin.state')}</dt>
        <dd>{shown.enabled ? t('admin.webhooks.enabled') : t('admin.webhooks.disabled')}</dd>
        <dt>{t('admin.created')}</dt>
        <dd>{when(shown.created_at)}</dd>
        <dt>{t('admin.webhooks.lastSuccess')}</dt>
        <dd>{when(shown.last_success_at)}</dd>
        <dt>{t('admin.webhooks.lastFailure')}</dt>
        <dd>{when(shown.last_failure_at)}</dd>
        <dt>{t('admin.webhooks.failingSince')}</dt>
        <dd>{when(shown.failing_since)}</dd>
      </dl>
      <p class="actions">
        <button type="button" disabled={action.busy} onClick={() => setEnabled(!shown.enabled)}>
          {shown.enabled ? t('admin.webhooks.disable') : t('admin.webhooks.enable')}
        </button>
        <button type="button" disabled={action.busy || !shown.enabled} onClick={test}>
          {t('admin.webhooks.test')}
        </button>
        <button type="button" disabled={action.busy} onClick={rotate}>
          {t('admin.webhooks.rotate')}
        </button>
        <ConfirmButton question={t('admin.webhooks.deleteQuestion', { url: shown.url })} confirm={t('admin.yesDelete')} onConfirm={remove}>
          {t('admin.webhooks.delete')}
        </ConfirmButton>
      </p>
      <h2>{t('admin.webhooks.change')}</h2>
      <Form id="change-webhook" action={action} label={t('admin.webhooks.changeLabel')} onSubmit={change}>
        <Field name="url" label={t('admin.webhooks.url')} defaultValue={shown.url} required />
        <Field name="description" label={t('admin.webhooks.description')} defaultValue={shown.description} />
        <EventChoice form="change-webhook" chosen={shown.events} />
        <Submit action={action}>{t('admin.save')}</Submit>
      </Form>
      <h2>{t('admin.webhooks.deliveries')}</h2>
      {deliveries.data ? (
        deliveries.data.length === 0 ? (
          <p>{t('admin.webhooks.noDeliveries')}</p>
        ) : (
          <div class="table-wrap">
            <table class="webhooks">
              <caption>{t('admin.webhooks.deliveriesCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('admin.webhooks.event')}</th>
                  <th scope="col">{t('admin.webhooks.type')}</th>
                  <th scope="col">{t('admin.state')}</th>
                  <th scope="col">{t('admin.attempts')}</th>
                  <th scope="col">{t('admin.webhooks.lastAnswer')}</th>
                  <th scope="col">{t('admin.nextAttempt')}</th>
                  <th scope="col">
                    <Hidden>{t('admin.actions')}</Hidden>
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
                    <td>{t('admin.stateValue', { state: delivery.state })}</td>
                    <td>{delivery.attempts}</td>
                    <td>{delivery.last_error ?? (delivery.last_status === null ? '—' : String(delivery.last_status))}</td>
                    <td>{when(delivery.next_attempt_at)}</td>
                    <td>
                      {delivery.state !== 'delivered' && (
                        <button type="button" disabled={action.busy} onClick={() => retry(delivery.id)}>
                          <Named shown={t('admin.retry')} heard={t('admin.webhooks.retryNamed', { id: delivery.id })} />
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
