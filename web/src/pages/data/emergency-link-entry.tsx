// One emergency link in its owner's list: what it is (label, made, expiry, PIN, what it shows, views), a
// disclosure to change it, its views, and Revoke. Buttons name the link for a screen reader.
import { api } from '../../api/client.ts';
import type { EmergencyLink } from '../../api/types.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { EditDisclosure } from '../../components/edit-disclosure.tsx';
import { Check, Field } from '../../components/form.tsx';
import { Hidden } from '../../components/page.tsx';
import type { Action } from '../../hooks/use-action.ts';
import { LinkChoices, shownCount, type Shown } from './emergency-link-choices.tsx';
import { changeBody, dateValue, linkName, shownTime } from './emergency-link-fields.ts';
import { LinkViews } from './emergency-link-views.tsx';

function expiry(link: EmergencyLink): string {
  if (link.expires_at === null) return 'Never';
  const when = shownTime(link.expires_at);
  return Date.parse(link.expires_at) <= Date.now() ? `${when} (expired: the link no longer opens)` : when;
}

function ChangeLink({ link, shown, onSaved }: { link: EmergencyLink; shown: Shown | undefined; onSaved(saved: EmergencyLink): void }) {
  const name = linkName(link);
  return (
    <EditDisclosure
      id={`change-link-${link.id}`}
      summary={
        <>
          Change<Hidden> {name}</Hidden>
        </>
      }
      submit={
        <>
          Save<Hidden> {name}</Hidden>
        </>
      }
      save={(data) => api.PATCH('/app/emergency-links/{id}/', { params: { path: { id: link.id } }, body: changeBody(data, link) })}
      onSaved={onSaved}
    >
      <Field name="label" label={`Label of ${name}`} defaultValue={link.label} />
      <Field
        name="expires_at"
        type="date"
        label={`Expiry date of ${name}`}
        hint="The link stops working at the end of this day."
        defaultValue={dateValue(link.expires_at)}
      />
      <Check name="never" label={`${name} never expires`} defaultChecked={link.expires_at === null} />
      <Field
        name="pin"
        label={`New PIN for ${name}`}
        inputMode="numeric"
        autocomplete="off"
        hint={link.has_pin ? '4 to 8 digits. Empty: the PIN stays as it is.' : '4 to 8 digits. Empty: no PIN.'}
      />
      {link.has_pin && <Check name="remove_pin" label={`Remove the PIN of ${name}`} />}
      {shown && <LinkChoices shown={shown} link={link} idPrefix={`change-link-${link.id}`} />}
    </EditDisclosure>
  );
}

interface EntryProps {
  link: EmergencyLink;
  revoking: Action;
  /** The app user's emergency items and contacts, to choose what the link shows (undefined: not read yet). */
  shown: Shown | undefined;
  onChanged(message: string): void;
}

export function EmergencyLinkEntry({ link, revoking, shown, onChanged }: EntryProps) {
  const name = linkName(link);
  async function revoke() {
    if (await revoking.run(() => api.DELETE('/app/emergency-links/{id}/', { params: { path: { id: link.id } } }))) {
      onChanged(`${name} is revoked: its link no longer opens anything.`);
    }
  }
  return (
    <li class="card">
      <h3>{name}</h3>
      <dl class="facts">
        <dt>Created</dt>
        <dd>{shownTime(link.created_at)}</dd>
        <dt>Expires</dt>
        <dd>{expiry(link)}</dd>
        <dt>PIN</dt>
        <dd>{link.has_pin ? 'Yes' : 'No'}</dd>
        <dt>Shows</dt>
        <dd>
          {shownCount(link.emergency_items, 'item')}, {shownCount(link.emergency_contacts, 'contact')}
        </dd>
        <dt>Views</dt>
        <dd>{link.views}</dd>
        <dt>Last viewed</dt>
        <dd>{link.last_viewed_at ? shownTime(link.last_viewed_at) : 'Never'}</dd>
      </dl>
      <ChangeLink link={link} shown={shown} onSaved={(saved) => onChanged(`${linkName(saved)} is saved.`)} />
      <LinkViews link={link} />
      <ConfirmButton
        small
        question={`Revoke ${name}? Its link will no longer open anything.`}
        confirm="Yes, revoke it"
        disabled={revoking.busy}
        onConfirm={revoke}
      >
        Revoke<Hidden> {name}</Hidden>
      </ConfirmButton>
    </li>
  );
}
