// /shared: what other people share with the caller (docs/sharing.md), the page their invitation
// e-mails link to: the invitations waiting for an answer (those to any verified address of the
// caller), to accept or decline, and the app users shared with them (the accessors the caller
// accepted), to open or leave.
import { type ApiResult, api } from '../api/client.ts';
import type { Accessor } from '../api/types.ts';
import { useAction } from '../hooks/use-action.ts';
import { useLoad } from '../hooks/use-load.ts';
import { ConfirmButton } from '../components/confirm-button.tsx';
import { Hidden, Loading, Page, Status } from '../components/page.tsx';
import { signedIn } from '../components/signed-in.tsx';
import { useStatusLine } from '../status-line.tsx';

/** What an accessor lets its person do, as a sentence's end ("view and change it"). */
function what(canWrite: boolean, seesPrivate: boolean): string {
  return `${canWrite ? 'view and change it' : 'view it'}${seesPrivate ? ', private profiles included' : ''}`;
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
        Sent to {accessor.email}. You could {what(accessor.can_write, accessor.has_private_profile_access)}.
      </p>
      <Problems action={action} />
      <p class="actions">
        <button
          type="button"
          disabled={action.busy}
          onClick={() => answer(() => api.POST('/app/accessors/{id}/accept/', { params: path }), `${name} is now shared with you.`)}
        >
          Accept<Hidden> the invitation from {name}</Hidden>
        </button>
        <ConfirmButton
          question={`Decline the invitation from ${name}? It will be gone: you will not see ${name} unless its owner invites you again.`}
          confirm="Yes, decline"
          disabled={action.busy}
          onConfirm={() => answer(() => api.DELETE('/app/accessors/{id}/', { params: path }), `You declined the invitation from ${name}.`)}
        >
          Decline<Hidden> the invitation from {name}</Hidden>
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
      status.say(`You left ${name}: it is no longer shared with you.`);
      onLeft();
    }
  }
  return (
    <li class="card">
      <h3>{name}</h3>
      <p>You can {what(accessor.can_write, accessor.has_private_profile_access)}.</p>
      <Problems action={action} />
      <p class="actions">
        <a class="button" href={`/data/users/${id}`}>
          Open<Hidden> {name}</Hidden>
        </a>
        <ConfirmButton
          question={`Leave ${name}? You will no longer see it unless invited again.`}
          confirm="Yes, leave"
          disabled={action.busy}
          onConfirm={leave}
        >
          Leave<Hidden> {name}</Hidden>
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
    <Page title="Shared with me">
      <Status />
      {problems.length > 0 && (
        <div role="alert" class="alert">
          {problems.join(' ')}
        </div>
      )}
      <section aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">Invitations</h2>
        {!pending.data ? (
          <Loading />
        ) : pending.data.length === 0 ? (
          <p class="muted">
            No invitation is waiting for you. An invitation to one of your addresses shows here once that address is verified (see{' '}
            <a href="/settings">Account</a>).
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
        <h2 id="shared-heading">Shared with you</h2>
        {!shared ? (
          <Loading />
        ) : shared.length === 0 ? (
          <p class="muted">Nothing is shared with you yet.</p>
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
