// Which profiles a share shows (docs/sharing.md, "Shares that show less"): every profile, those
// added later too, or only those ticked. One fieldset in the invitation form and in each
// accessor's form; what it sends is `profilesOf`.
import { useState } from 'preact/hooks';
import { t } from '../../i18n/language.ts';

export interface ProfileEntry {
  id: number;
  name: string;
  is_private: boolean;
}

/** `chosen`: the ids the share shows; null: every profile. `about`: whom the form is for, for screen readers. */
export function ProfileChoice({
  profiles,
  chosen,
  idPrefix,
}: {
  profiles: ProfileEntry[];
  chosen: readonly number[] | null;
  idPrefix: string;
}) {
  const [every, setEvery] = useState(chosen === null);
  return (
    <fieldset class="choices">
      <legend>{t('data.share.profilesLegend')}</legend>
      {/* Says the form holds this choice, so that nothing ticked sends an empty list. */}
      <input type="hidden" name="shown_profiles" value="1" />
      <div class="field check">
        <input
          id={`${idPrefix}-all-profiles`}
          name="all_profiles"
          type="checkbox"
          checked={every}
          onChange={(event) => setEvery((event.target as HTMLInputElement).checked)}
        />
        <label for={`${idPrefix}-all-profiles`}>{t('data.share.profilesAll')}</label>
      </div>
      {!every &&
        profiles.map((profile) => (
          <div class="field check" key={profile.id}>
            <input
              id={`${idPrefix}-profile-${profile.id}`}
              name="profile"
              type="checkbox"
              value={String(profile.id)}
              defaultChecked={chosen === null || chosen.includes(profile.id)}
            />
            <label for={`${idPrefix}-profile-${profile.id}`}>
              {profile.is_private ? t('data.share.profilePrivate', { name: profile.name }) : profile.name}
            </label>
          </div>
        ))}
    </fieldset>
  );
}

/** What the form's choice sends as `profiles`: null for every profile, else the ids ticked. */
export function profilesOf(data: FormData): number[] | null {
  return data.get('all_profiles') === 'on' ? null : data.getAll('profile').map(Number);
}

/** Whether two choices (as the API reads them back, ascending) are the same. */
export function sameChoice(a: readonly number[] | null, b: readonly number[] | null): boolean {
  if (a === null || b === null) return a === b;
  const sorted = [...b].sort((x, y) => x - y);
  return a.length === sorted.length && a.every((id, i) => id === sorted[i]);
}
