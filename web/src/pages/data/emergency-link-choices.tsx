// What an emergency link shows (docs/emergency-links.md): every emergency item and contact, those
// added later too, or only those ticked. One fieldset for items and one for contacts, in the
// link forms; what they send is `choicesBody` (emergency-link-fields.ts).
import { useState } from 'preact/hooks';
import type { EmergencyContact, EmergencyItem } from '../../api/types.ts';
import { t } from '../../i18n/language.ts';

export interface Shown {
  items: EmergencyItem[];
  contacts: EmergencyContact[];
}

function Choice({
  kind,
  legend,
  all,
  entries,
  chosen,
  idPrefix,
}: {
  kind: 'item' | 'contact';
  legend: string;
  all: string;
  entries: { id: number; name: string }[];
  /** The ids the link shows; null: every one. */
  chosen: number[] | null;
  idPrefix: string;
}) {
  const [every, setEvery] = useState(chosen === null);
  return (
    <fieldset class="choices">
      <legend>{legend}</legend>
      {/* Says the form holds this choice, so that nothing ticked sends an empty list. */}
      <input type="hidden" name={`shown_${kind}s`} value="1" />
      <div class="field check">
        <input
          id={`${idPrefix}-all-${kind}s`}
          name={`all_${kind}s`}
          type="checkbox"
          checked={every}
          onChange={(event) => setEvery((event.target as HTMLInputElement).checked)}
        />
        <label for={`${idPrefix}-all-${kind}s`}>{all}</label>
      </div>
      {!every &&
        (entries.length === 0 ? (
          <p class="muted">{t('data.links.noneYet')}</p>
        ) : (
          entries.map((entry) => (
            <div class="field check" key={entry.id}>
              <input
                id={`${idPrefix}-${kind}-${entry.id}`}
                name={kind}
                type="checkbox"
                value={String(entry.id)}
                defaultChecked={chosen === null || chosen.includes(entry.id)}
              />
              <label for={`${idPrefix}-${kind}-${entry.id}`}>{entry.name}</label>
            </div>
          ))
        ))}
    </fieldset>
  );
}

/** How much of a kind the link shows, in words ("every item", "2 contacts"). */
export function shownCount(chosen: number[] | null, kind: 'item' | 'contact'): string {
  if (kind === 'item') return chosen === null ? t('data.links.everyItem') : t('data.links.items', { count: chosen.length });
  return chosen === null ? t('data.links.everyContact') : t('data.links.contacts', { count: chosen.length });
}

/** The two fieldsets; `link`: the link's current choices (a new link: every one). */
export function LinkChoices({
  shown,
  link,
  idPrefix,
}: {
  shown: Shown;
  link: { emergency_items: number[] | null; emergency_contacts: number[] | null };
  idPrefix: string;
}) {
  return (
    <>
      <Choice
        kind="item"
        legend={t('data.links.itemsLegend')}
        all={t('data.links.allItems')}
        entries={shown.items}
        chosen={link.emergency_items}
        idPrefix={idPrefix}
      />
      <Choice
        kind="contact"
        legend={t('data.links.contactsLegend')}
        all={t('data.links.allContacts')}
        entries={shown.contacts}
        chosen={link.emergency_contacts}
        idPrefix={idPrefix}
      />
    </>
  );
}
