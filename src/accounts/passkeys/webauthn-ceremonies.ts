// The WebAuthn ceremonies (docs/sign-in-providers.md) over @simplewebauthn/server: the options a browser
// or app hands to its authenticator, and the check of what the authenticator answered. Every
// refusal becomes a 400 under `response` with a sentence a person can read, never a 500.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Config } from '../../config.ts';
import { fieldError } from '../../errors.ts';

export const UNREADABLE_ANSWER = 'passkeys.unreadableAnswer';
export const NOT_VERIFIED = 'passkeys.notVerified';
export const NO_USER_VERIFICATION = 'passkeys.noUserVerification';

/** How long a ceremony's challenge may wait for its answer. */
export const CEREMONY_TIMEOUT_MS = 5 * 60_000;

type WebAuthnConfig = Config['webauthn'];

/** The user handle the authenticator stores with a passkey: the account id, no personal data. */
export function userHandleOf(accountId: number): string {
  return Buffer.from(String(accountId), 'utf8').toString('base64url');
}

export function creationOptions(
  config: WebAuthnConfig,
  account: { id: number; email: string; first_name: string; last_name: string },
  existing: { credential_id: string; transports: string }[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: config.rpName,
    rpID: config.rpId,
    userName: account.email,
    userID: Buffer.from(String(account.id), 'utf8'),
    userDisplayName: `${account.first_name} ${account.last_name}`.trim() || account.email,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credential_id, transports: transportsOf(passkey.transports) })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
}

export function requestOptions(config: WebAuthnConfig): Promise<PublicKeyCredentialRequestOptionsJSON> {
  // Discoverable credentials: no allowCredentials, so the authenticator offers the passkeys it holds for this site.
  return generateAuthenticationOptions({ rpID: config.rpId, timeout: CEREMONY_TIMEOUT_MS, userVerification: 'required' });
}

/** The challenge the answer claims to answer (read from its clientDataJSON), before anything is checked. */
export function challengeIn(response: { response: { clientDataJSON: string } }): string {
  try {
    const clientData = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'));
    if (typeof clientData?.challenge === 'string' && clientData.challenge !== '') return clientData.challenge;
  } catch {}
  throw fieldError('response', UNREADABLE_ANSWER);
}

/** The signature counter in an assertion's authenticator data (bytes 33–36), or undefined when too short. */
export function counterIn(response: AuthenticationResponseJSON): number {
  const data = Buffer.from(response.response.authenticatorData, 'base64url');
  if (data.length < 37) throw fieldError('response', UNREADABLE_ANSWER);
  return data.readUInt32BE(33);
}

export interface NewCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string;
  backedUp: boolean;
}

export async function verifyCreation(
  config: WebAuthnConfig,
  response: RegistrationResponseJSON,
  challenge: string,
): Promise<NewCredential> {
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: config.origins,
      expectedRPID: config.rpId,
      requireUserVerification: true,
    });
  } catch (error) {
    throw refusal(error);
  }
  if (!verified.verified) throw fieldError('response', NOT_VERIFIED);
  const { credential, credentialBackedUp } = verified.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: (response.response.transports ?? []).filter((t) => /^[a-z-]{1,20}$/.test(t)).join(','),
    backedUp: credentialBackedUp,
  };
}

export async function verifyAssertion(
  config: WebAuthnConfig,
  response: AuthenticationResponseJSON,
  challenge: string,
  passkey: { credential_id: string; public_key: string; counter: number; transports: string },
): Promise<{ counter: number; backedUp: boolean }> {
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: config.origins,
      expectedRPID: config.rpId,
      requireUserVerification: true,
      credential: {
        id: passkey.credential_id,
        publicKey: Buffer.from(passkey.public_key, 'base64url'),
        counter: passkey.counter,
        transports: transportsOf(passkey.transports),
      },
    });
  } catch (error) {
    throw refusal(error);
  }
  if (!verified.verified) throw fieldError('response', NOT_VERIFIED);
  return { counter: verified.authenticationInfo.newCounter, backedUp: verified.authenticationInfo.credentialBackedUp };
}

function transportsOf(stored: string): AuthenticatorTransportName[] {
  return stored === '' ? [] : (stored.split(',') as AuthenticatorTransportName[]);
}

type AuthenticatorTransportName = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

/** The library throws plain Errors for every refusal; a person gets one of our sentences. */
function refusal(error: unknown) {
  const message = error instanceof Error ? error.message : '';
  if (/user verification/i.test(message) || /could not be verified/i.test(message)) return fieldError('response', NO_USER_VERIFICATION);
  if (/origin|RP ID|rpID|signature|challenge|type/i.test(message)) return fieldError('response', NOT_VERIFIED);
  return fieldError('response', UNREADABLE_ANSWER);
}
