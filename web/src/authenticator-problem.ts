// What a person reads when the browser or the authenticator, not the API, stops a passkey
// ceremony (@simplewebauthn/browser throws; the API never heard of it).
export function authenticatorProblem(error: unknown, adding: boolean): string {
  const name = (error as { name?: string } | null)?.name;
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return 'This authenticator already holds a passkey for your account.';
  }
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return adding
      ? 'No passkey was made: it was cancelled, or it took too long. Try again.'
      : 'No passkey was used: it was cancelled, or it took too long. Try again.';
  }
  if (code === 'ERROR_INVALID_DOMAIN' || name === 'SecurityError') {
    return 'This browser does not allow passkeys on this address.';
  }
  return 'This browser or device cannot use passkeys here.';
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
