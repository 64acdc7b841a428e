// Mailing-list sync with Mailchimp: the key and list, and the API it talks to.
import { text, url } from './parsers.ts';
import { ConfigError, type Settings, type Variables } from './variable.ts';

export interface MailchimpConfig {
  mailchimp: { apiKey: string; listId: string; apiUrl: string } | undefined;
}

export const MAILCHIMP = {
  apiKey: { name: 'MAILCHIMP_API_KEY', parser: text, doc: 'the API key, ending in its data centre (…-us6); unset: sync off' },
  listId: { name: 'MAILCHIMP_LIST_ID', parser: text, doc: 'the list (audience) kept in sync' },
  apiUrl: { name: 'MAILCHIMP_API_URL', parser: url(['http:', 'https:']), doc: "the API's base URL; unset: the key's data centre's" },
} satisfies Variables;

/** The data-centre suffix of a Mailchimp key ("…-us6") names its API host. */
function apiUrlOfKey(apiKey: string): string {
  const dc = /-([a-z]+\d+)$/.exec(apiKey)?.[1];
  if (!dc) throw new ConfigError('MAILCHIMP_API_KEY must end with its data centre, like "…-us6" (or set MAILCHIMP_API_URL)');
  return `https://${dc}.api.mailchimp.com/3.0`;
}

/** The key and the list go together: both or neither. */
export function loadMailchimp(settings: Settings): MailchimpConfig {
  const apiKey = settings.read(MAILCHIMP.apiKey);
  const listId = settings.read(MAILCHIMP.listId);
  if (Boolean(apiKey) !== Boolean(listId)) {
    settings.problem(
      `mailing-list sync needs MAILCHIMP_API_KEY and MAILCHIMP_LIST_ID together; missing ${apiKey ? 'MAILCHIMP_LIST_ID' : 'MAILCHIMP_API_KEY'}`,
    );
  }
  if (!apiKey || !listId) return { mailchimp: undefined };
  const apiUrl = settings.check(() => settings.value(MAILCHIMP.apiUrl) ?? apiUrlOfKey(apiKey), '');
  return { mailchimp: { apiKey, listId, apiUrl: apiUrl.replace(/\/+$/, '') } };
}
