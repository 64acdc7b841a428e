// The language switcher, in the header of every page and at the foot of an emergency link's
// public page: a labelled <select> of the languages the service speaks, each in its own name
// and marked with its `lang`. A choice is remembered in this browser and, when signed in,
// saved as the account's language (its e-mails follow it). Signing in where no choice was made
// takes the account's language.
import { api } from '../api/client.ts';
import { currentToken } from '../session.ts';
import { signedInAccount } from '../signed-in-account.ts';
import {
  currentLanguage,
  isLanguage,
  LANGUAGE_NAMES,
  type Language,
  languageChosenHere,
  offeredLanguages,
  switchLanguage,
  t,
} from './language.ts';

/** Speaks `language` from now on, here and (signed in) in the account's e-mails. */
export async function chooseLanguage(language: Language): Promise<void> {
  await switchLanguage(language, true);
  if (currentToken() === null) return;
  // The account's `language` (PATCH /account/profile/). A refusal changes nothing here: the page already speaks it.
  await api.PATCH('/account/profile/', { body: { language } }).catch(() => undefined);
}

/**
 * Just signed in, in a browser where nobody chose a language: the account's language (the one
 * its e-mails are written in), kept here from now on, so that a person who set it on their phone
 * reads the same on a new computer. A choice made in this browser stays.
 */
export async function adoptAccountLanguage(): Promise<void> {
  const token = currentToken();
  if (languageChosenHere() !== null || token === null) return;
  const language = (await signedInAccount(token))?.language;
  // Chosen here while the profile was on its way: that choice stays.
  if (isLanguage(language) && offeredLanguages().includes(language) && languageChosenHere() === null) await switchLanguage(language, true);
}

export function LanguageSwitcher({ id = 'language' }: { id?: string }) {
  const offered = offeredLanguages();
  if (offered.length < 2) return null;
  return (
    <div class="language-switcher">
      <label for={id}>{t('language.label')}</label>
      <select
        id={id}
        value={currentLanguage()}
        onChange={(event) => {
          const value = event.currentTarget.value;
          if (isLanguage(value)) void chooseLanguage(value);
        }}
      >
        {offered.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
