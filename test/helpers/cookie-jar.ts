// One browser's cookies for a test's requests to the service: what its Set-Cookie headers set,
// sent back in Cookie, as a browser keeps them for one site — Secure ones included, since
// browsers treat http://127.0.0.1 and http://localhost as secure contexts. Each jar is one
// browser: two jars are two people's browsers.

export class CookieJar {
  readonly #cookies = new Map<string, string>();

  /** Keeps what a response's Set-Cookie headers set (and forgets what they expire). */
  take(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const expired = attributes.some((attribute) => /^max-age=(0|-)/i.test(attribute));
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, pair!.slice(at + 1));
    }
  }

  get(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  set(name: string, value: string): void {
    this.#cookies.set(name, value);
  }

  /** The Cookie header to send ({} when there is nothing to send). */
  headers(): Record<string, string> {
    if (this.#cookies.size === 0) return {};
    return { cookie: [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }
}
