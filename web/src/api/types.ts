// Names for the shapes the pages show, taken from the generated schema (never written by hand).
import type { paths } from './schema';

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Success<R> = R extends { 200: infer S } ? S : R extends { 201: infer S } ? S : never;
type Method = 'get' | 'post' | 'patch';
/** The JSON body of the success answer of `method` on `path`. */
export type Ok<P extends keyof paths, M extends Method> = Json<
  Success<NonNullable<paths[P][M]> extends { responses: infer R } ? R : never>
>;

export type EmailAddress = Ok<'/account/emails/', 'get'>[number];
export type Session = Ok<'/auth/sessions/', 'get'>[number];
export type Passkey = Ok<'/account/passkeys/', 'get'>[number];
export type Identity = Ok<'/account/identities/', 'get'>[number];
export type SignInProvider = Ok<'/auth/providers/', 'get'>[number];
/** An app user as a list shows it (the detail adds its profiles and links). */
export type AppUser = Ok<'/app/users/', 'get'>[number];
export type Profile = Ok<'/app/users/{id}/profiles/', 'get'>[number];
export type Topic = Ok<'/app/topics/{id}/', 'get'>;
export type Item = Topic['items'][number];
export type ListEntry = NonNullable<Item['list_content']>['entries'][number];
export type MediaResource = Ok<'/app/users/{id}/gallery/', 'get'>[number];
export type EmergencyLink = Ok<'/app/users/{id}/emergency-links/', 'get'>[number];
/** A link as its create answers it: with `link`, the public URL, shown this once. */
export type CreatedEmergencyLink = Ok<'/app/users/{id}/emergency-links/', 'post'>;
export type LinkView = Ok<'/app/emergency-links/{id}/views/', 'get'>[number];
/** What an emergency link shows anyone who holds it. */
export type PublicEmergencyInfo = Ok<'/public/emergency/{token}/', 'get'>;
export type EmergencyItem = Ok<'/app/users/{id}/emergency-items/', 'get'>[number];
export type EmergencyContact = Ok<'/app/users/{id}/emergency-contacts/', 'get'>[number];
export type Accessor = Ok<'/app/accessors/{id}/', 'get'>;
/** The authenticator's answer as the API takes it (@simplewebauthn/browser's JSON, cast once). */
export type PasskeyCreation = Json<NonNullable<paths['/account/passkeys/']['post']>['requestBody']>;
export type PasskeySignIn = Json<NonNullable<paths['/auth/passkey/']['post']>['requestBody']>;
export type ActivityEvent = Ok<'/account/activity/', 'get'>['events'][number];
