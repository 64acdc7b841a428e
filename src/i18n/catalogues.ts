// Every catalogue of locales/, one per language and domain, bundled with the service: `api` for
// the API's error sentences, `email` for e-mails, `web-*` for the web client's pages (checked
// here at start-up, loaded by the web client itself). English is the source: its keys are the
// types of the keys code may use, and every other language must have each of them.
import enApi from '../../locales/en/api.json' with { type: 'json' };
import enEmail from '../../locales/en/email.json' with { type: 'json' };
import enWebCommon from '../../locales/en/web-common.json' with { type: 'json' };
import enWebAccount from '../../locales/en/web-account.json' with { type: 'json' };
import enWebData from '../../locales/en/web-data.json' with { type: 'json' };
import enWebAdmin from '../../locales/en/web-admin.json' with { type: 'json' };
import deApi from '../../locales/de/api.json' with { type: 'json' };
import deEmail from '../../locales/de/email.json' with { type: 'json' };
import deWebCommon from '../../locales/de/web-common.json' with { type: 'json' };
import deWebAccount from '../../locales/de/web-account.json' with { type: 'json' };
import deWebData from '../../locales/de/web-data.json' with { type: 'json' };
import deWebAdmin from '../../locales/de/web-admin.json' with { type: 'json' };
import frApi from '../../locales/fr/api.json' with { type: 'json' };
import frEmail from '../../locales/fr/email.json' with { type: 'json' };
import frWebCommon from '../../locales/fr/web-common.json' with { type: 'json' };
import frWebAccount from '../../locales/fr/web-account.json' with { type: 'json' };
import frWebData from '../../locales/fr/web-data.json' with { type: 'json' };
import frWebAdmin from '../../locales/fr/web-admin.json' with { type: 'json' };
import esApi from '../../locales/es/api.json' with { type: 'json' };
import esEmail from '../../locales/es/email.json' with { type: 'json' };
import esWebCommon from '../../locales/es/web-common.json' with { type: 'json' };
import esWebAccount from '../../locales/es/web-account.json' with { type: 'json' };
import esWebData from '../../locales/es/web-data.json' with { type: 'json' };
import esWebAdmin from '../../locales/es/web-admin.json' with { type: 'json' };
import type { Language } from './languages.ts';

export const DOMAINS = ['api', 'email', 'web-common', 'web-account', 'web-data', 'web-admin'] as const;
export type Domain = (typeof DOMAINS)[number];

/** A domain's messages: key → ICU message. */
export type Messages = Readonly<Record<string, string>>;
export type Catalogue = Readonly<Record<Domain, Messages>>;

/** A key of the API's error sentences. */
export type ApiMessageKey = keyof typeof enApi;
/** A key of the e-mails' texts. */
export type EmailMessageKey = keyof typeof enEmail;

export const CATALOGUES: Readonly<Record<Language, Catalogue>> = {
  en: {
    api: enApi,
    email: enEmail,
    'web-common': enWebCommon,
    'web-account': enWebAccount,
    'web-data': enWebData,
    'web-admin': enWebAdmin,
  },
  de: {
    api: deApi,
    email: deEmail,
    'web-common': deWebCommon,
    'web-account': deWebAccount,
    'web-data': deWebData,
    'web-admin': deWebAdmin,
  },
  fr: {
    api: frApi,
    email: frEmail,
    'web-common': frWebCommon,
    'web-account': frWebAccount,
    'web-data': frWebData,
    'web-admin': frWebAdmin,
  },
  es: {
    api: esApi,
    email: esEmail,
    'web-common': esWebCommon,
    'web-account': esWebAccount,
    'web-data': esWebData,
    'web-admin': esWebAdmin,
  },
};
