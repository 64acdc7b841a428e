// Reading one cookie from a request's Cookie header. The API's credentials are tokens in the
// Authorization header; the one cookie the service sets binds a provider sign-in to the
// browser that started it (accounts/identities/sign-in-browser.ts).

/** The value of the cookie `name` in a Cookie header, or undefined (absent, or sent twice). */
export function cookieNamed(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const values = header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${name}=`))
    .map((pair) => pair.slice(name.length + 1));
  // Two of one name: one was planted beside ours; neither is trusted.
  return values.length === 1 ? values[0] : undefined;
}
