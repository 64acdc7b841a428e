// What an emergency link shows (docs/emergency-links.md): every emergency item and contact, those
// added later too, or only those ticked. One fieldset for items and one for contacts, in the
// link forms; what they send is `choicesBody` (emergency-link-fields.ts).
import { useState } from 'preact/hooks';
import type { EmergencyContact, EmergencyItem } from '../../api/types.ts';

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
          <p class="muted">None yet.</p>
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

/** How much of a kind the link shows, in words. */
export function shownCount(chosen: number[] | null, noun: string): string {
  if (chosen === null) return `every ${noun}`;
  return chosen.length === 1 ? `1 ${noun}` : `${chosen.length} ${noun}s`;
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
        legend="Emergency items the link shows"
        all="Every emergency item, also those added later"
        entries={shown.items}
        chosen={link.emergency_items}
        idPrefix={idPrefix}
      />
      <Choice
        kind="contact"
        legend="Emergency contacts the link shows"
        all="Every emergency contact, also those added later"
        entries={shown.contacts}
        chosen={link.emergency_contacts}
        idPrefix={idPrefix}
      />
    </>
  );
}
