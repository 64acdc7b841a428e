// Every API call asks for the page's language, so that the API's error sentences a page shows
// are in it too.
import type { Middleware } from 'openapi-fetch';
import { currentLanguage } from '../i18n/language.ts';

export const speakLanguage: Middleware = {
  onRequest({ request }) {
    request.headers.set('Accept-Language', currentLanguage());
    return request;
  },
};
