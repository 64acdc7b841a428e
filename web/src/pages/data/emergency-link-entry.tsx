// One emergency link in its owner's list: what it is (label, made, expiry, PIN, what it shows, views), a
// disclosure to change it, its views, and Revoke. Buttons name the link for a screen reader.
import { api } from '../../api/client.ts';
import type { EmergencyLink } from '../../api/types.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { EditDisclosure } from '../../components/edit-disclosure.tsx';
import { Check, Field } from '../../components/form.tsx';
import type { Action } from '../../hooks/use-action.ts';
import { LinkChoices, shownCount, type Shown } from './emergency-link-choices.tsx';
import { changeBody, dateValue, linkName, shownTime } from './emergency-link-fields.ts';
import { LinkViews } from './emergency-link-views.tsx';
import { t } from '../../i18n/language.ts';
import { Named } from '../../components/rich-text.tsx';

function expiry(link: EmergencyLink): string {
  if (link.expires_at === null) return t('data.links.neverShort');
  const when = shownTime(link.expires_at);
  return Date.parse(link.expires_at) <= Date.now() ? t('data.links.expired', { when }) : when;
}

function ChangeLink({ link, shown, onSaved }: { link: EmergencyLink; shown: Shown | undefined; onSaved(saved: EmergencyLink): void }) {
  const name = linkName(link);
  return (
    <EditDisclosure
      id={`change-link-${link.id}`}
      summary={<Named shown={t('data.links.change')} heard={t('data.links.changeNamed', { name })} />}
      submit={<Named shown={t('data.save')} heard={t('data.links.saveNamed', { name })} />}
      save={(data) => api.PATCH('/app/emergency-links/{id}/', { params: { path: { id: link.id } }, body: changeBody(data, link) })}
      onSaved={onSaved}
    >
      <Field name="label" label={t('data.links.labelOf', { name })} defaultValue={link.label} />
      <Field
        name="expires_at"
        type="date"
        label={t('data.links.expiryOf', { name })}
        hint={t('data.links.expiryChangeHint')}
        defaultValue={dateValue(link.expires_at)}
      />
      <Check name="never" label={t('data.links.neverOf', { name })} defaultChecked={link.expires_at === null} />
      <Field
        name="pin"
        label={t('data.links.newPinOf', { name })}
        inputMode="numeric"
        autocomplete="off"
        hint={link.has_pin ? t('data.links.newPinHintKeep') : t('data.links.newPinHintNone')}
      />
      {link.has_pin && <Check name="remove_pin" label={t('data.links.removePinOf', { name })} />}
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
      onChanged(t('data.links.revoked', { name }));
    }
  }
  return (
    <li class="card">
      <h3>{name}</h3>
      <dl class="facts">
        <dt>{t('data.links.factCreated')}</dt>
        <dd>{shownTime(link.created_at)}</dd>
        <dt>{t('data.links.factExpires')}</dt>
        <dd>{expiry(link)}</dd>
        <dt>{t('data.links.factPin')}</dt>
        <dd>{link.has_pin ? t('data.yes') : t('data.no')}</dd>
        <dt>{t('data.links.factShows')}</dt>
        <dd>
          {t('data.links.shows', {
            items: shownCount(link.emergency_items, 'item'),
            contacts: shownCount(link.emergency_contacts, 'contact'),
          })}
        </dd>
        <dt>{t('data.links.factViews')}</dt>
        <dd>{link.views}</dd>
        <dt>{t('data.links.factLastViewed')}</dt>
        <dd>{link.last_viewed_at ? shownTime(link.last_viewed_at) : t('data.links.neverShort')}</dd>
      </dl>
      <ChangeLink link={link} shown={shown} onSaved={(saved) => onChanged(t('data.links.saved', { name: linkName(saved) }))} />
      <LinkViews link={link} />
      <ConfirmButton
        small
        question={t('data.links.revokeQuestion', { name })}
        confirm={t('data.links.yesRevoke')}
        disabled={revoking.busy}
        onConfirm={revoke}
      >
        <Named shown={t('data.links.revoke')} heard={t('data.links.revokeNamed', { name })} />
      </ConfirmButton>
    </li>
  );
}
