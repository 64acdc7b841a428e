// Many concurrent requests against a running service (logins, reads of a profile detail,
// item creates, /health), each checked against what a service whose database comes and goes
// may answer: 200/201, or 503 with Retry-After and a {"detail"} body. Anything else, and any
// request not answered within the bound, is recorded.

export interface LoadTarget {
  url: string;
  token: string;
  email: string;
  password: string;
  profileId: number;
  topicId: number;
}

type Kind = 'login' | 'read' | 'create' | 'health';

/** Each worker goes round this (logins are few: each costs a password hash). */
const ROUND: Kind[] = ['read', 'create', 'health', 'read', 'create', 'read', 'create', 'health', 'login'];

export class Load {
  sent = 0;
  /** "create 201", "health 503", … */
  readonly statuses = new Map<string, number>();
  /** Requests with no answer within the bound. */
  waitedPastBound = 0;
  /** Answers that break the rules above (a 500, a 503 without Retry-After, no answer at all). */
  readonly violations: string[] = [];
  /** Ids of the items whose create was answered 201. */
  readonly acknowledged: number[] = [];
  #target: LoadTarget;
  #boundMs: number;
  #running = false;
  #workers: Promise<void>[] = [];

  constructor(target: LoadTarget, boundMs: number) {
    this.#target = target;
    this.#boundMs = boundMs;
  }

  count(kind: Kind, status: number): number {
    return this.statuses.get(`${kind} ${status}`) ?? 0;
  }

  start(concurrency: number): void {
    this.#running = true;
    this.#workers = Array.from({ length: concurrency }, (_, index) => this.#worker(index));
  }

  async stop(): Promise<void> {
    this.#running = false;
    await Promise.all(this.#workers);
  }

  async #worker(index: number): Promise<void> {
    for (let step = index; this.#running; step++) {
      await this.#send(ROUND[step % ROUND.length]!, `${index}-${step}`);
      // A breath between requests: the machine is shared, and a refused database answers fast.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  #request(kind: Kind, label: string): { path: string; init: RequestInit } {
    const { token, email, password, profileId, topicId } = this.#target;
    const auth = { authorization: `Token ${token}` };
    const json = { 'content-type': 'application/json' };
    switch (kind) {
      case 'health':
        return { path: '/health', init: {} };
      case 'read':
        return { path: `/app/profiles/${profileId}/`, init: { headers: auth } };
      case 'login':
        return { path: '/auth/login/', init: { method: 'POST', headers: json, body: JSON.stringify({ username: email, password }) } };
      case 'create':
        return {
          path: `/app/topics/${topicId}/items/`,
          init: {
            method: 'POST',
            headers: { ...auth, ...json },
            body: JSON.stringify({ name: `Item ${label}`, list_content: { entries: [{ text: label }] } }),
          },
        };
    }
  }

  async #send(kind: Kind, label: string): Promise<void> {
    const { path, init } = this.#request(kind, label);
    this.sent++;
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.#target.url + path, { ...init, signal: AbortSignal.timeout(this.#boundMs) });
      text = await response.text();
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') this.waitedPastBound++;
      else this.violations.push(`${kind}: no answer (${(error as Error).message})`);
      return;
    }
    const status = response.status;
    this.statuses.set(`${kind} ${status}`, this.count(kind, status) + 1);
    const expected = kind === 'create' ? 201 : 200;
    if (status === expected) {
      if (kind === 'create') this.acknowledged.push((JSON.parse(text) as { id: number }).id);
      return;
    }
    if (status === 503 && response.headers.has('retry-after') && typeof JSON.parse(text).detail === 'string') return;
    this.violations.push(`${kind}: ${status} ${response.headers.get('retry-after') === null ? '' : '(Retry-After) '}${text.slice(0, 200)}`);
  }
}
