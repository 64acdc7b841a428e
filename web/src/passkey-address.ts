// A passkey belongs to the service's WebAuthn RP id (WEBAUTHN_RP_ID: PUBLIC_URL's host by
// default), and the browser makes or uses one only on a page at that host or below it. At
// another address — http://127.0.0.1:8000 where the RP id is localhost, since WebAuthn takes no
// IP address — the browser refuses with a bare SecurityError; these say what to open instead.
import { t } from './i18n/language.ts';

const IP_ADDRESS = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

/** This page at `host` instead of its own. */
function sameAddressAt(here: Location, host: string): string {
  return `${here.protocol}//${host}${here.port ? `:${here.port}` : ''}${here.pathname}`;
}

/** Before trying: a page at an IP address can have no passkey. Null when the address may do. */
export function ipAddressHint(here: Location): string | null {
  if (!IP_ADDRESS.test(here.hostname)) return null;
  return LOOPBACK.test(here.hostname)
    ? t('passkey.ipAddressLoopback', { host: here.hostname, address: sameAddressAt(here, 'localhost') })
    : t('passkey.ipAddress', { host: here.hostname });
}

/** Once the service has named its RP id: why this page cannot use it, or null when it can. */
export function rpIdProblem(rpId: string | undefined, here: Location): string | null {
  if (!rpId) return null;
  const host = here.hostname.toLowerCase();
  const id = rpId.toLowerCase();
  if (host === id || host.endsWith(`.${id}`)) return null;
  return t('passkey.otherRpId', { rpId, host: here.hostname, address: sameAddressAt(here, rpId) });
}
