// Which profiles a share shows (docs/sharing.md, "Shares that show less"): every profile, those
// added later too, or only those ticked. One fieldset in the invitation form and in each
// accessor's form; what it sends is `profilesOf`. A private profile is shown only with private
// access, so without "Can see private profiles" ticked it cannot be chosen (disabled, never
// ticked, not sent); and a choice that would show no profile says so before it is saved.
import { useState } from 'preact/hooks';
import { t } from '../../i18n/language.ts';

export interface ProfileEntry {
  id: number;
  name: string;
  is_private: boolean;
}

/**
 * `chosen`: the ids the share shows; null: every profile. `privateAccess`: whether the form's
 * "Can see private profiles" is ticked now.
 */
export function ProfileChoice({
  profiles,
  chosen,
  privateAccess,
  idPrefix,
}: {
  profiles: ProfileEntry[];
  chosen: readonly number[] | null;
  privateAccess: boolean;
  idPrefix: string;
}) {
  const [every, setEvery] = useState(chosen === null);
  // Null until "Every profile" is first unticked on a share of every profile: then each profile it can show.
  const [ticked, setTicked] = useState<ReadonlySet<number> | null>(chosen === null ? null : new Set(chosen));
  const choosable = (profile: ProfileEntry) => privateAccess || !profile.is_private;
  const shown = ticked ?? new Set<number>();
  const showsNone = !every && !profiles.some((profile) => choosable(profile) && shown.has(profile.id));
  const privateHint = !privateAccess && profiles.some((profile) => profile.is_private) ? `${idPrefix}-private-hint` : undefined;

  function chooseEvery(checked: boolean) {
    setEvery(checked);
    if (!checked && ticked === null) setTicked(new Set(profiles.filter(choosable).map((profile) => profile.id)));
  }
  function tick(id: number, checked: boolean) {
    const next = new Set(shown);
    if (checked) next.add(id);
    else next.delete(id);
    setTicked(next);
  }
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
          onChange={(event) => chooseEvery((event.target as HTMLInputElement).checked)}
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
              checked={choosable(profile) && shown.has(profile.id)}
              disabled={!choosable(profile)}
              aria-describedby={profile.is_private ? privateHint : undefined}
              onChange={(event) => tick(profile.id, (event.target as HTMLInputElement).checked)}
            />
            <label for={`${idPrefix}-profile-${profile.id}`}>
              {profile.is_private ? t('data.share.profilePrivate', { name: profile.name }) : profile.name}
            </label>
          </div>
        ))}
      {!every && privateHint && (
        <p id={privateHint} class="hint">
          {t('data.share.privateNeedsAccess')}
        </p>
      )}
      <div aria-live="polite">{showsNone && <p class="hint">{t('data.share.noProfileChosen')}</p>}</div>
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
