// What a person reads when the browser or the authenticator, not the API, stops a passkey
// ceremony (@simplewebauthn/browser throws; the API never heard of it).
import { t } from './i18n/language.ts';

export function authenticatorProblem(error: unknown, adding: boolean): string {
  const name = (error as { name?: string } | null)?.name;
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return t('passkey.alreadyRegistered');
  }
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return adding ? t('passkey.notMade') : t('passkey.notUsed');
  }
  if (code === 'ERROR_INVALID_DOMAIN' || name === 'SecurityError') {
    return t('passkey.addressNotAllowed');
  }
  return t('passkey.unsupported');
}

/**
 * The API refuses an authenticator's answer under `response`, a field no form has: its
 * sentence is for the person, so the form shows it as being about the whole request.
 */
export function refusalAsGeneral<T extends { error?: unknown }>(result: T): T {
  const error = result.error as { response?: unknown } | undefined;
  if (!error || typeof error !== 'object' || !Array.isArray(error.response)) return result;
  const { response, ...rest } = error;
  return { ...result, error: { ...rest, non_field_errors: response } };
}
