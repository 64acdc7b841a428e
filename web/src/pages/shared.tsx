// /shared: what other people share with the caller (docs/sharing.md), the page their invitation
// e-mails link to: the invitations waiting for an answer (those to any verified address of the
// caller), to accept or decline, and the app users shared with them (the accessors the caller
// accepted), to open or leave. Each says what its share is limited to, as the invitation e-mail
// does: an end date, and that only some profiles are shared.
import { type ApiResult, api } from '../api/client.ts';
import type { Accessor } from '../api/types.ts';
import { useAction } from '../hooks/use-action.ts';
import { useLoad } from '../hooks/use-load.ts';
import { ConfirmButton } from '../components/confirm-button.tsx';
import { Loading, Page, Status } from '../components/page.tsx';
import { signedIn } from '../components/signed-in.tsx';
import { useStatusLine } from '../status-line.tsx';
import { formatDateTime, t } from '../i18n/language.ts';
import { Named, Rich } from '../components/rich-text.tsx';

/** What an accessor lets its person do: `could` for an invitation ("You could view it."), else "You can view it.". */
function what(canWrite: boolean, seesPrivate: boolean, could: boolean): string {
  const values = { write: canWrite ? 'yes' : 'no', private: seesPrivate ? 'yes' : 'no' };
  return could ? t('data.shared.could', values) : t('data.shared.can', values);
}

/**
 * When the share ends (or ended), and that only some profiles are shared: not which, since
 * `profiles` holds the owner's ids, some of which the person may not see.
 */
function Limits({ accessor }: { accessor: Accessor }) {
  const { expires_at: end } = accessor;
  return (
    <>
      {accessor.profiles !== null && <p>{t('data.shared.someProfiles')}</p>}
      {end !== null && (
        <p>
          <Rich
            k={accessor.expired ? 'data.shared.endedOn' : 'data.shared.endsOn'}
            parts={{ when: <time dateTime={end}>{formatDateTime(end)}</time> }}
          />
        </p>
      )}
    </>
  );
}

function Problems({ action }: { action: ReturnType<typeof useAction> }) {
  return (
    <div role="alert" class="alert">
      {[...action.problems.general, ...Object.values(action.problems.fields).flat()].map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

function Invitation({ accessor, onAnswered }: { accessor: Accessor; onAnswered(): void }) {
  const action = useAction();
  const status = useStatusLine();
  const { name } = accessor.app_user;
  const path = { path: { id: accessor.id } };
  async function answer(call: () => Promise<ApiResult<unknown>>, message: string) {
    if (await action.run(call)) {
      status.say(message);
      onAnswered();
    }
  }
  return (
    <li class="card">
      <h3>{name}</h3>
      <p>
        {t('data.shared.sentTo', { email: accessor.email })} {what(accessor.can_write, accessor.has_private_profile_access, true)}
      </p>
      <Limits accessor={accessor} />
      <Problems action={action} />
      <p class="actions">
        <button
          type="button"
          disabled={action.busy}
          onClick={() => answer(() => api.POST('/app/accessors/{id}/accept/', { params: path }), t('data.shared.accepted', { name }))}
        >
          <Named shown={t('data.shared.accept')} heard={t('data.shared.acceptNamed', { name })} />
        </button>
        <ConfirmButton
          question={t('data.shared.declineQuestion', { name })}
          confirm={t('data.shared.yesDecline')}
          disabled={action.busy}
          onConfirm={() => answer(() => api.DELETE('/app/accessors/{id}/', { params: path }), t('data.shared.declined', { name }))}
        >
          <Named shown={t('data.shared.decline')} heard={t('data.shared.declineNamed', { name })} />
        </ConfirmButton>
      </p>
    </li>
  );
}

function SharedAppUser({ accessor, onLeft }: { accessor: Accessor; onLeft(): void }) {
  const action = useAction();
  const status = useStatusLine();
  const { id, name } = accessor.app_user;
  async function leave() {
    if (await action.run(() => api.DELETE('/app/accessors/{id}/', { params: { path: { id: accessor.id } } }))) {
      status.say(t('data.shared.left', { name }));
      onLeft();
    }
  }
  return (
    <li class="card">
      <h3>{name}</h3>
      {/* Ended: nothing to view or open until its owner gives it back. */}
      {!accessor.expired && <p>{what(accessor.can_write, accessor.has_private_profile_access, false)}</p>}
      <Limits accessor={accessor} />
      <Problems action={action} />
      <p class="actions">
        {!accessor.expired && (
          <a class="button" href={`/data/users/${id}`}>
            <Named shown={t('data.shared.open')} heard={t('data.shared.openNamed', { name })} />
          </a>
        )}
        <ConfirmButton
          question={t('data.shared.leaveQuestion', { name })}
          confirm={t('data.shared.yesLeave')}
          disabled={action.busy}
          onConfirm={leave}
        >
          <Named shown={t('data.shared.leave')} heard={t('data.shared.leaveNamed', { name })} />
        </ConfirmButton>
      </p>
    </li>
  );
}

export const Shared = signedIn(function Shared() {
  const pending = useLoad(() => api.GET('/app/accessors/pending/'));
  const accepted = useLoad(() => api.GET('/app/accessors/'));
  const shared = accepted.data;
  const problems = [...(pending.problems?.general ?? []), ...(accepted.problems?.general ?? [])];
  function reload() {
    pending.reload();
    accepted.reload();
  }
  return (
    <Page title={t('data.shared.title')}>
      <Status />
      {problems.length > 0 && (
        <div role="alert" class="alert">
          {problems.join(' ')}
        </div>
      )}
      <section aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">{t('data.shared.invitations')}</h2>
        {!pending.data ? (
          <Loading />
        ) : pending.data.length === 0 ? (
          <p class="muted">
            <Rich k="data.shared.noInvitation" parts={{ link: <a href="/settings">{t('data.shared.accountLink')}</a> }} />
          </p>
        ) : (
          <ul class="cards">
            {pending.data.map((accessor) => (
              <Invitation key={accessor.id} accessor={accessor} onAnswered={reload} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="shared-heading">
        <h2 id="shared-heading">{t('data.shared.sharedWithYou')}</h2>
        {!shared ? (
          <Loading />
        ) : shared.length === 0 ? (
          <p class="muted">{t('data.shared.nothing')}</p>
        ) : (
          <ul class="cards">
            {shared.map((accessor) => (
              <SharedAppUser key={accessor.id} accessor={accessor} onLeft={reload} />
            ))}
          </ul>
        )}
      </section>
    </Page>
  );
});
