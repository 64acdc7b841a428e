// The English of an API sentence: the service throws keys of locales/en/api.json, the tests
// compare what a request without Accept-Language is answered (DEFAULT_LANGUAGE, en).
import type { ApiMessageKey } from '../../src/i18n/catalogues.ts';
import { formatMessage, type MessageValues } from '../../src/i18n/format.ts';

export function english(key: ApiMessageKey, values?: MessageValues): string {
  return formatMessage('en', 'api', key, values);
}
