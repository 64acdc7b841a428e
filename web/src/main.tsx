import { render } from 'preact';
import { App } from './app.tsx';
import { preferredLanguage, switchLanguage } from './i18n/language.ts';
import { adoptAccountLanguage } from './i18n/switcher.tsx';
import { onSignIn } from './session.ts';
import './style.css';

// The first page is drawn in the reader's language, never in English first.
await switchLanguage(preferredLanguage());
onSignIn(() => void adoptAccountLanguage());
render(<App />, document.getElementById('app')!);
