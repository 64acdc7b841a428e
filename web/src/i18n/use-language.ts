// The current language as a component's state: the component draws again after a switch.
import { useEffect, useState } from 'preact/hooks';
import { currentLanguage, type Language, onLanguageSwitch } from './language.ts';

export function useLanguage(): Language {
  const [language, setLanguage] = useState(currentLanguage());
  useEffect(() => {
    // A switch between the first draw and this effect is not missed.
    setLanguage(currentLanguage());
    return onLanguageSwitch(setLanguage);
  }, []);
  return language;
}
