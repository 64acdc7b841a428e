// /data/share: the owner shares their app user (docs/sharing.md): invites a person by e-mail
// address, for good or until a date, sees who is invited, who accepted and whose access ended,
// changes what each may do and until when, and revokes.
import { useState } from 'preact/hooks';
import { type ApiResult, api } from '../../api/client.ts';
import type { Accessor } from '../../api/types.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { Check, Field, Form, Submit, text } from '../../components/form.tsx';
import { AppUserMissing } from '../../components/no-app-user.tsx';
import { Loading, Page, Status } from '../../components/page.tsx';
import { BackLink } from '../../components/shared-note.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useAppUser } from '../../hooks/use-app-user.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useStatusLine } from '../../status-line.tsx';
import { dateValue, endOfDay, shownTime } from './emergency-link-fields.ts';
import { t } from '../../i18n/language.ts';
import { Named } from '../../components/rich-text.tsx';
import { type ProfileEntry, ProfileChoice, profilesOf, sameChoice } from './profile-choice.tsx';

/** The end date as the API takes it: the end of that day (local), null for none. A date the browser could not read goes as typed. */
function expiryOf(data: FormData): string | null {
  const date = text(data, 'expires_at');
  return date === '' ? null : (endOfDay(date) ?? date);
}

/** Until when, in words. */
function until(accessor: Accessor): string {
  if (accessor.expires_at === null) return t('data.share.untilRevoked');
  const when = shownTime(accessor.expires_at);
  return accessor.expired ? t('data.share.ended', { when }) : t('data.share.until', { when });
}

/** "Invited", or who accepted ("Accepted by Bob Builder"). */
function standing(accessor: Accessor): string {
  if (accessor.expired) return t('data.share.accessEnded');
  if (!accessor.accepted) return t('data.share.invited');
  const name = [accessor.user_with_access?.first_name, accessor.user_with_access?.last_name].filter(Boolean).join(' ');
  return name ? t('data.share.acceptedBy', { name }) : t('data.share.accepted');
}

function AccessorRow({ accessor, profiles, onChange }: { accessor: Accessor; profiles: ProfileEntry[]; onChange(): void }) {
  const action = useAction();
  const status = useStatusLine();
  const { email } = accessor;
  const path = { path: { id: accessor.id } };
  const [privateAccess, setPrivateAccess] = useState(accessor.has_private_profile_access);
  async function act(call: () => Promise<ApiResult<unknown>>, message: string) {
    if (await action.run(call)) {
      status.say(message);
      onChange();
    }
  }
  function save(data: FormData) {
    const expires = expiryOf(data);
    const chosen = profilesOf(data);
    const body = {
      can_write: data.get('can_write') === 'on',
      has_private_profile_access: data.get('has_private_profile_access') === 'on',
      // Sent only when changed: an unchanged past date would be refused.
      ...(text(data, 'expires_at') !== dateValue(accessor.expires_at) && { expires_at: expires }),
      ...(!sameChoice(accessor.profiles, chosen) && { profiles: chosen }),
    };
    return act(() => api.PATCH('/app/accessors/{id}/', { params: path, body }), t('data.share.saved', { email }));
  }
  return (
    <li class="card">
      <p>
        <strong>{email}</strong>{' '}
        <span class={accessor.accepted && !accessor.expired ? 'badge ok' : 'badge warn'}>{standing(accessor)}</span>
      </p>
      <p class="muted">{until(accessor)}</p>
      <Form id={`accessor-${accessor.id}`} action={action} onSubmit={save} label={t('data.share.whatMayDo', { email })}>
        <Check
          name="can_write"
          label={<Named shown={t('data.share.canEdit')} heard={t('data.share.canEditNamed', { email })} />}
          defaultChecked={accessor.can_write}
        />
        <Check
          name="has_private_profile_access"
          label={<Named shown={t('data.share.canSeePrivate')} heard={t('data.share.canSeePrivateNamed', { email })} />}
          defaultChecked={accessor.has_private_profile_access}
          onChange={setPrivateAccess}
        />
        <Field
          name="expires_at"
          label={t('data.share.endsOnOf', { email })}
          type="date"
          hint={accessor.expired ? t('data.share.laterDateHint') : t('data.share.emptyHint')}
          defaultValue={dateValue(accessor.expires_at)}
        />
        <ProfileChoice profiles={profiles} chosen={accessor.profiles} privateAccess={privateAccess} idPrefix={`accessor-${accessor.id}`} />
        <p class="actions">
          <Submit action={action}>
            <Named shown={t('data.save')} heard={t('data.share.saveNamed', { email })} />
          </Submit>
          <ConfirmButton
            question={accessor.accepted ? t('data.share.revokeQuestion', { email }) : t('data.share.withdrawQuestion', { email })}
            confirm={t('data.share.yesRevoke')}
            disabled={action.busy}
            onConfirm={() =>
              act(
                () => api.DELETE('/app/accessors/{id}/', { params: path }),
                accessor.accepted ? t('data.share.revoked', { email }) : t('data.share.withdrawn', { email }),
              )
            }
          >
            <Named shown={t('data.share.revoke')} heard={t('data.share.revokeNamed', { email })} />
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
  const profiles = useLoad(
    () =>
      user
        ? api.GET('/app/users/{id}/profiles/', { params: { path: { id: user.id } } })
        : Promise.resolve({ data: undefined, response: new Response() }),
    user?.id,
  );
  const action = useAction();
  const status = useStatusLine();
  const [privateAccess, setPrivateAccess] = useState(false);
  // Counts the invitations sent from this page: the profile choice starts afresh after each.
  const [sent, setSent] = useState(0);
  async function invite(data: FormData, form: HTMLFormElement) {
    if (!user) return;
    const body = {
      email: text(data, 'email'),
      can_write: data.get('can_write') === 'on',
      has_private_profile_access: data.get('has_private_profile_access') === 'on',
      expires_at: expiryOf(data),
      profiles: profilesOf(data),
    };
    const done = await action.run(() => api.POST('/app/users/{id}/accessors/', { params: { path: { id: user.id } }, body }));
    if (done) {
      form.reset();
      setPrivateAccess(false);
      setSent((count) => count + 1);
      status.say(t('data.share.sent', { email: done.data.email }));
      accessors.reload();
    }
  }
  return (
    <Page title={t('data.share.title')}>
      <BackLink user={user} base="/data" />
      <Status />
      {!user ? (
        <AppUserMissing user={user} problems={problems} />
      ) : (
        <>
          <section aria-labelledby="invite-heading">
            <h2 id="invite-heading">{t('data.share.invite')}</h2>
            <p>{t('data.share.explain')}</p>
            <Form id="invite" action={action} onSubmit={invite}>
              <Field name="email" label={t('data.share.email')} type="email" autocomplete="off" required />
              <Check name="can_write" label={t('data.share.canEdit')} />
              <Check name="has_private_profile_access" label={t('data.share.canSeePrivate')} onChange={setPrivateAccess} />
              <Field name="expires_at" label={t('data.share.endsOn')} type="date" hint={t('data.share.endsOnHint')} />
              <ProfileChoice key={sent} profiles={profiles.data ?? []} chosen={null} privateAccess={privateAccess} idPrefix="invite" />
              <Submit action={action}>{t('data.share.inviteButton')}</Submit>
            </Form>
          </section>
          <section aria-labelledby="accessors-heading">
            <h2 id="accessors-heading">{t('data.share.people')}</h2>
            {accessors.problems ? (
              <div role="alert" class="alert">
                {accessors.problems.general.join(' ')}
              </div>
            ) : !accessors.data ? (
              <Loading />
            ) : accessors.data.length === 0 ? (
              <p class="muted">{t('data.share.noOne')}</p>
            ) : (
              <ul class="cards">
                {accessors.data.map((accessor) => (
                  <AccessorRow key={accessor.id} accessor={accessor} profiles={profiles.data ?? []} onChange={accessors.reload} />
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </Page>
  );
});
