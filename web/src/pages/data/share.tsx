// /data/share: the owner shares their app user (docs/sharing.md): invites a person by e-mail
// address, for good or until a date, sees who is invited, who accepted and whose access ended,
// changes what each may do and until when, and revokes.
import { type ApiResult, api } from '../../api/client.ts';
import type { Accessor } from '../../api/types.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { Check, Field, Form, Submit, text } from '../../components/form.tsx';
import { AppUserMissing } from '../../components/no-app-user.tsx';
import { Hidden, Loading, Page, Status } from '../../components/page.tsx';
import { BackLink } from '../../components/shared-note.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useAppUser } from '../../hooks/use-app-user.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useStatusLine } from '../../status-line.tsx';
import { dateValue, endOfDay, shownTime } from './emergency-link-fields.ts';

/** The end date as the API takes it: the end of that day (local), null for none. A date the browser could not read goes as typed. */
function expiryOf(data: FormData): string | null {
  const date = text(data, 'expires_at');
  return date === '' ? null : (endOfDay(date) ?? date);
}

/** Until when, in words. */
function until(accessor: Accessor): string {
  if (accessor.expires_at === null) return 'Until you revoke it';
  return accessor.expired ? `Ended ${shownTime(accessor.expires_at)}` : `Until ${shownTime(accessor.expires_at)}`;
}

/** "Invited", or who accepted ("Accepted by Bob Builder"). */
function standing(accessor: Accessor): string {
  if (accessor.expired) return 'Access ended';
  if (!accessor.accepted) return 'Invited';
  const name = [accessor.user_with_access?.first_name, accessor.user_with_access?.last_name].filter(Boolean).join(' ');
  return name ? `Accepted by ${name}` : 'Accepted';
}

function AccessorRow({ accessor, onChange }: { accessor: Accessor; onChange(): void }) {
  const action = useAction();
  const status = useStatusLine();
  const { email } = accessor;
  const path = { path: { id: accessor.id } };
  async function act(call: () => Promise<ApiResult<unknown>>, message: string) {
    if (await action.run(call)) {
      status.say(message);
      onChange();
    }
  }
  function save(data: FormData) {
    const expires = expiryOf(data);
    const body = {
      can_write: data.get('can_write') === 'on',
      has_private_profile_access: data.get('has_private_profile_access') === 'on',
      // Sent only when changed: an unchanged past date would be refused.
      ...(text(data, 'expires_at') !== dateValue(accessor.expires_at) && { expires_at: expires }),
    };
    return act(() => api.PATCH('/app/accessors/{id}/', { params: path, body }), `What ${email} may do is saved.`);
  }
  return (
    <li class="card">
      <p>
        <strong>{email}</strong>{' '}
        <span class={accessor.accepted && !accessor.expired ? 'badge ok' : 'badge warn'}>{standing(accessor)}</span>
      </p>
      <p class="muted">{until(accessor)}</p>
      <Form id={`accessor-${accessor.id}`} action={action} onSubmit={save} label={`What ${email} may do`}>
        <Check
          name="can_write"
          label={
            <>
              Can edit<Hidden> ({email})</Hidden>
            </>
          }
          defaultChecked={accessor.can_write}
        />
        <Check
          name="has_private_profile_access"
          label={
            <>
              Can see private profiles<Hidden> ({email})</Hidden>
            </>
          }
          defaultChecked={accessor.has_private_profile_access}
        />
        <Field
          name="expires_at"
          label={`Access of ${email} ends on`}
          type="date"
          hint={accessor.expired ? 'A later date gives the access back, without a new invitation.' : 'Leave empty: until you revoke it.'}
          defaultValue={dateValue(accessor.expires_at)}
        />
        <p class="actions">
          <Submit action={action}>
            Save<Hidden> what {email} may do</Hidden>
          </Submit>
          <ConfirmButton
            question={accessor.accepted ? `Stop sharing your data with ${email}?` : `Withdraw the invitation to ${email}?`}
            confirm="Yes, revoke"
            disabled={action.busy}
            onConfirm={() =>
              act(
                () => api.DELETE('/app/accessors/{id}/', { params: path }),
                accessor.accepted ? `${email} no longer sees your data.` : `The invitation to ${email} is withdrawn.`,
              )
            }
          >
            Revoke<Hidden> {email}</Hidden>
          </ConfirmButton>
        </p>
      </Form>
    </li>
  );
}

export const Share = signedIn(function Share() {
  const { user, problems } = useAppUser();
  const accessors = useLoad(
    () =>
      user
        ? api.GET('/app/users/{id}/accessors/', { params: { path: { id: user.id } } })
        : Promise.resolve({ data: undefined, response: new Response() }),
    user?.id,
  );
  const action = useAction();
  const status = useStatusLine();
  async function invite(data: FormData, form: HTMLFormElement) {
    if (!user) return;
    const body = {
      email: text(data, 'email'),
      can_write: data.get('can_write') === 'on',
      has_private_profile_access: data.get('has_private_profile_access') === 'on',
      expires_at: expiryOf(data),
    };
    const done = await action.run(() => api.POST('/app/users/{id}/accessors/', { params: { path: { id: user.id } }, body }));
    if (done) {
      form.reset();
      status.say(`We sent an invitation to ${done.data.email}.`);
      accessors.reload();
    }
  }
  return (
    <Page title="Share your data">
      <BackLink user={user} base="/data" />
      <Status />
      {!user ? (
        <AppUserMissing user={user} problems={problems} />
      ) : (
        <>
          <section aria-labelledby="invite-heading">
            <h2 id="invite-heading">Invite someone</h2>
            <p>
              They get an e-mail with a link. Once they accept, they see your profiles, gallery and emergency information; private profiles
              only if you let them, and they change things only if they can edit.
            </p>
            <Form id="invite" action={action} onSubmit={invite}>
              <Field name="email" label="Their e-mail address" type="email" autocomplete="off" required />
              <Check name="can_write" label="Can edit" />
              <Check name="has_private_profile_access" label="Can see private profiles" />
              <Field name="expires_at" label="Access ends on" type="date" hint="Optional. Leave empty: until you revoke it." />
              <Submit action={action}>Invite</Submit>
            </Form>
          </section>
          <section aria-labelledby="accessors-heading">
            <h2 id="accessors-heading">People you share with</h2>
            {accessors.problems ? (
              <div role="alert" class="alert">
                {accessors.problems.general.join(' ')}
              </div>
            ) : !accessors.data ? (
              <Loading />
            ) : accessors.data.length === 0 ? (
              <p class="muted">No one yet.</p>
            ) : (
              <ul class="cards">
                {accessors.data.map((accessor) => (
                  <AccessorRow key={accessor.id} accessor={accessor} onChange={accessors.reload} />
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </Page>
  );
});
