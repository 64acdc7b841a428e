// Sign in with another provider (docs/sign-in-providers.md): the OpenID providers the operator
// lists, each with its issuer, client ids and secret; Apple with the key its secret is made from.
import { existsSync } from 'node:fs';
import { isLoopbackName } from '../http/loopback.ts';
import { parseUrl, text } from './parsers.ts';
import { ConfigError, type Settings, type Variable, type Variables } from './variable.ts';

/** One OpenID provider of OIDC_PROVIDERS. */
export interface OidcProviderConfig {
  /** Lower-case, as in the URLs (/auth/oidc/<name>/…); its variables are OIDC_<NAME>_…. */
  name: string;
  /** What the buttons say: "Continue with <label>". */
  label: string;
  /** The issuer: discovery reads <issuer>/.well-known/openid-configuration. */
  issuer: string;
  /** The web client id first, then the apps' (iOS bundle id, Android client id): an ID token for any of them is accepted. */
  clientIds: string[];
  /** undefined: Apple (its secret is made from `apple`), or a public client (PKCE only). */
  clientSecret: string | undefined;
  /** Sign in with Apple: the secret is an ES256 JWT signed with this key; the nonce in its ID tokens is the SHA-256 of the app's. */
  apple: { teamId: string; keyId: string; privateKeyFile: string } | undefined;
}

export interface SignInProvidersConfig {
  /** Sign in with another provider (docs/sign-in-providers.md, OIDC_PROVIDERS): in the order the operator listed them. */
  oidcProviders: OidcProviderConfig[];
}

export const SIGN_IN_PROVIDERS = {
  providers: { name: 'OIDC_PROVIDERS', parser: text, doc: 'the providers offered, by name, comma-separated; unset: none' },
  issuer: { name: 'OIDC_<NAME>_ISSUER', parser: text, doc: "a provider's issuer URL: https://, or http:// on a loopback address" },
  clientId: {
    name: 'OIDC_<NAME>_CLIENT_ID',
    parser: text,
    doc: "a provider's client ids: the web client's, then the apps', comma-separated",
  },
  clientSecret: { name: 'OIDC_<NAME>_CLIENT_SECRET', parser: text, doc: "a provider's client secret; unset: a public client" },
  label: { name: 'OIDC_<NAME>_LABEL', parser: text, doc: 'what the buttons say: "Continue with <label>"' },
  appleTeamId: { name: 'OIDC_APPLE_TEAM_ID', parser: text, doc: "Apple: the developer team's id" },
  appleKeyId: { name: 'OIDC_APPLE_KEY_ID', parser: text, doc: "Apple: the id of the key Apple's client secret is signed with" },
  applePrivateKeyFile: { name: 'OIDC_APPLE_PRIVATE_KEY_FILE', parser: text, doc: 'Apple: that key, a .p8 file' },
} satisfies Variables;

const KNOWN_LABELS: Record<string, string> = { apple: 'Apple', google: 'Google', microsoft: 'Microsoft', gitlab: 'GitLab' };

/** The text of one provider's variable (`OIDC_<NAME>_ISSUER` for `google`: OIDC_GOOGLE_ISSUER). */
function providerText(settings: Settings, variable: Variable<string>, name: string): string | undefined {
  return settings.text(variable.name.replace('<NAME>', name.toUpperCase()));
}

function provider(settings: Settings, name: string): OidcProviderConfig {
  const prefix = `OIDC_${name.toUpperCase()}_`;
  const issuerValue = providerText(settings, SIGN_IN_PROVIDERS.issuer, name);
  if (issuerValue === undefined) throw new ConfigError(`OIDC_PROVIDERS names "${name}": set ${prefix}ISSUER (the provider's issuer URL)`);
  const issuer = parseUrl(`${prefix}ISSUER`, issuerValue, ['https:', 'http:']).replace(/\/+$/, '');
  const issuerUrl = new URL(issuer);
  if (issuerUrl.protocol === 'http:' && !isLoopbackName(issuerUrl.hostname)) {
    throw new ConfigError(`${prefix}ISSUER must be https:// (http:// only on a loopback address such as 127.0.0.1), got "${issuerValue}"`);
  }
  if (issuerUrl.search !== '' || issuerUrl.hash !== '')
    throw new ConfigError(`${prefix}ISSUER must have no query or fragment, got "${issuerValue}"`);
  const clientIds = (providerText(settings, SIGN_IN_PROVIDERS.clientId, name) ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (clientIds.length === 0) {
    throw new ConfigError(`OIDC_PROVIDERS names "${name}": set ${prefix}CLIENT_ID (the web client id, then any app ids, comma-separated)`);
  }
  const clientSecret = providerText(settings, SIGN_IN_PROVIDERS.clientSecret, name);
  let apple: OidcProviderConfig['apple'];
  if (name === 'apple') {
    const { appleTeamId, appleKeyId, applePrivateKeyFile } = SIGN_IN_PROVIDERS;
    const appleVars = [appleTeamId.name, appleKeyId.name, applePrivateKeyFile.name];
    const missing = appleVars.filter((variable) => settings.text(variable) === undefined);
    if (missing.length > 0) throw new ConfigError(`Sign in with Apple needs ${appleVars.join(', ')}; missing ${missing.join(', ')}`);
    if (clientSecret !== undefined) {
      throw new ConfigError(
        "OIDC_APPLE_CLIENT_SECRET is not used: Apple's client secret is made from OIDC_APPLE_PRIVATE_KEY_FILE; unset it",
      );
    }
    const privateKeyFile = settings.text(applePrivateKeyFile.name)!;
    if (!existsSync(privateKeyFile)) throw new ConfigError(`OIDC_APPLE_PRIVATE_KEY_FILE: no file at "${privateKeyFile}"`);
    apple = { teamId: settings.text(appleTeamId.name)!, keyId: settings.text(appleKeyId.name)!, privateKeyFile };
  }
  const label = providerText(settings, SIGN_IN_PROVIDERS.label, name) ?? KNOWN_LABELS[name] ?? name.charAt(0).toUpperCase() + name.slice(1);
  return { name, label, issuer, clientIds, clientSecret, apple };
}

/** OIDC_PROVIDERS and each provider's variables, or a ConfigError for the first problem. */
function providers(settings: Settings): OidcProviderConfig[] {
  const list = settings.text(SIGN_IN_PROVIDERS.providers.name);
  if (list === undefined) return [];
  const names = list.split(',').map((name) => name.trim().toLowerCase());
  const seen = new Set<string>();
  return names.map((name) => {
    if (!/^[a-z][a-z0-9]{0,29}$/.test(name)) {
      throw new ConfigError(`OIDC_PROVIDERS must be names of letters and digits (starting with a letter), comma-separated; got "${list}"`);
    }
    if (seen.has(name)) throw new ConfigError(`OIDC_PROVIDERS names "${name}" twice`);
    seen.add(name);
    return provider(settings, name);
  });
}

export function loadSignInProviders(settings: Settings): SignInProvidersConfig {
  return { oidcProviders: settings.check(() => providers(settings), []) };
}
