// Sends one fuzz request and checks the invariants on its response: no 5xx, the declared
// schema (response-checker.ts), 401 for bad credentials, and 404 {"detail":"Not found."}
// for an id that is not the caller's. Keeps the world usable after destructive requests and
// counts what it saw.
import { fillPath, type Operation } from './openapi-walker.ts';
import { excerpt, type ResponseChecker, type ObservedResponse } from './response-checker.ts';
import { isCleanText } from './strings.ts';
import { plainValue, writeJson, type WorldRef } from './json-values.ts';
import { multipartRequest, type MultipartSpec } from './multipart-arbitraries.ts';
import { isWellFormedJsonType, type AuthChoice, type IdChoice, type RequestSpec } from './request-arbitraries.ts';
import { KIND_OF_SEGMENT, type FuzzWorld, type IdKind, type Party } from './fuzz-world.ts';

const NOT_FOUND = '{"detail":"Not found."}';
/** An id no object has (the largest the service accepts). */
const ABSENT_ID = '2147483647';
/** docs/accounts.md: change-password works anonymously with a key, so no token is not a 401 there. */
const ANONYMOUS_WITH_KEY = new Set(['POST /account/change-password/']);
/** Ending a session may end the caller's own (the current one is among the ids). */
const TOKEN_REVOKING = new Set(['POST /auth/logout/', 'POST /auth/logout-all/', 'DELETE /auth/sessions/{id}/']);
const UNTRIMMED_FIELDS = new Set(['password', 'old_password', 'new_password']);

export interface SentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Buffer | FormData | undefined;
  /** How the request was built, for messages. */
  description: string;
}

export interface Figures {
  requests: number;
  fiveXx: number;
  schemaMismatches: number;
  idViolations: number;
  statuses: Map<number, number>;
  /** Statuses seen per operation ("GET /app/users/" → status → count). */
  byOperation: Map<string, Map<number, number>>;
  covered: Set<string>;
}

interface Resolved extends SentRequest {
  idClass: 'none' | 'own' | 'foreign' | 'junk';
  authValid: boolean;
  wellFormed: boolean;
  /** The JSON body as a plain value (WorldRefs resolved), when it is one. */
  plainBody: unknown;
}

export class FuzzRunner {
  readonly figures: Figures = {
    requests: 0,
    fiveXx: 0,
    schemaMismatches: 0,
    idViolations: 0,
    statuses: new Map(),
    byOperation: new Map(),
    covered: new Set(),
  };
  /** The last request that broke an invariant and its response (after shrinking: the shrunk one). */
  lastFailure: { request: SentRequest; response: ObservedResponse; problems: string[] } | undefined;

  private readonly world: FuzzWorld;
  private readonly checker: ResponseChecker;

  constructor(world: FuzzWorld, checker: ResponseChecker) {
    this.world = world;
    this.checker = checker;
  }

  /** Sends `spec` as a request to `operation`; throws with the broken invariants. */
  async runCase(operation: Operation, spec: RequestSpec): Promise<void> {
    const request = this.resolve(operation, spec);
    const response = await this.send(request);
    this.figures.covered.add(operation.key);
    const seen = this.figures.byOperation.get(operation.key) ?? new Map<number, number>();
    this.figures.byOperation.set(operation.key, seen.set(response.status, (seen.get(response.status) ?? 0) + 1));
    const problems = this.checker.check(operation, request.method, response);
    if (response.status >= 500) this.figures.fiveXx++;
    if (problems.some((problem) => !problem.startsWith('5xx'))) this.figures.schemaMismatches++;
    problems.push(...this.authProblems(operation, request, response));
    const idProblems = await this.idProblems(operation, spec, request, response);
    if (idProblems.length > 0) this.figures.idViolations++;
    problems.push(...idProblems);
    if (response.status === 201) problems.push(...locationProblems(response));
    await this.keepWorldUsable(operation, request, response);
    if (problems.length > 0) {
      this.lastFailure = { request, response, problems };
      throw new Error(`${problems.join('; ')}\n${describe(request, response)}`);
    }
  }

  private authProblems(operation: Operation, request: Resolved, response: ObservedResponse): string[] {
    // The operators' routes are an unknown path to anyone but an operator (docs/operators.md); the
    // fuzzer's parties are none.
    if (operation.path.startsWith('/admin/')) {
      return response.status === 404 && response.text === NOT_FOUND
        ? []
        : [`an operators' route answered a non-operator ${response.status}, not 404`];
    }
    if (operation.anonymous || request.authValid) return [];
    // fetch trims header values: a blank Authorization is no Authorization.
    const noToken = (request.headers.authorization ?? '').trim() === '';
    if (noToken && ANONYMOUS_WITH_KEY.has(operation.key)) return [];
    return response.status === 401 ? [] : [`bad or missing credentials answered ${response.status}, not 401`];
  }

  /** An id that is not the caller's is 404, or (for a malformed request) the same answer as an id nobody has. */
  private async idProblems(operation: Operation, spec: RequestSpec, request: Resolved, response: ObservedResponse): Promise<string[]> {
    const isFile = operation.pathParams.includes('storage_key');
    // A signed file URL and an emergency link are capabilities: the stranger's work for anyone (docs/app-data.md, docs/emergency-links.md).
    const isCapability = isFile || operation.pathParams.includes('token');
    if (request.idClass === 'none' || request.idClass === 'own' || (isCapability && request.idClass === 'foreign')) return [];
    if (!isFile && !request.authValid) return [];
    if (response.status === 404 && (response.text === NOT_FOUND || (request.method === 'HEAD' && response.text === ''))) return [];
    const what = `${request.idClass} id`;
    if (request.wellFormed || isFile) return [`${what} answered ${response.status} ${excerpt(response.text)}, not 404 ${NOT_FOUND}`];
    const absent = Object.fromEntries(
      Object.entries(spec.ids).map(([name, choice]) => [
        name,
        choice.kind === 'own' ? choice : ({ kind: 'junk', value: ABSENT_ID } as IdChoice),
      ]),
    );
    const control = await this.send(this.resolve(operation, { ...spec, ids: absent }));
    if (control.status === response.status && control.text === response.text) return [];
    return [
      `${what} answered ${response.status} ${excerpt(response.text)}, while an id nobody has answered ${control.status} ${excerpt(control.text)}`,
    ];
  }

  private async keepWorldUsable(operation: Operation, request: Resolved, response: ObservedResponse): Promise<void> {
    if (response.status >= 300) return;
    const caller = this.world.caller;
    if (operation.key === 'DELETE /account/') return this.world.replaceAccount(caller);
    if (TOKEN_REVOKING.has(operation.key)) await this.world.renewToken(caller);
    if (operation.key === 'POST /account/change-password/' && request.authValid) {
      const body = request.plainBody as { new_password?: unknown } | undefined;
      if (typeof body?.new_password === 'string') caller.password = body.new_password;
    }
    const replacesEntries = operation.path === '/app/items/{id}/' && (request.method === 'PATCH' || request.method === 'PUT');
    if (request.method === 'DELETE' || replacesEntries) await this.world.repair(caller);
    if (request.idClass === 'foreign' || request.idClass === 'junk') await this.world.repair(this.world.stranger);
  }

  private async send(request: SentRequest): Promise<ObservedResponse> {
    this.figures.requests++;
    const response = await fetch(this.world.server.url + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
    // A live stream (GET …/events/) does not end: its head is what is checked, then it is closed.
    const streaming = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
    let text = '';
    if (streaming) await response.body?.cancel();
    else text = await response.text();
    this.figures.statuses.set(response.status, (this.figures.statuses.get(response.status) ?? 0) + 1);
    return { status: response.status, headers: response.headers, text };
  }

  resolve(operation: Operation, spec: RequestSpec): Resolved {
    const { caller, stranger } = this.world;
    let idClass: Resolved['idClass'] = operation.pathParams.length > 0 ? 'own' : 'none';
    const values: Record<string, string> = {};
    for (const name of operation.pathParams) {
      const choice = spec.ids[name]!;
      const kind = kindOf(operation.path, name);
      if (choice.kind === 'junk') {
        idClass = 'junk';
        values[name] = encodeURIComponent(choice.value);
      } else {
        if (choice.kind === 'foreign' && idClass !== 'junk') idClass = 'foreign';
        const party = choice.kind === 'own' ? caller : stranger;
        const ids: Array<number | string> = party.ids[kind];
        if (ids.length === 0) throw new Error(`the fuzz world has no ${kind} of the ${party.label}`);
        values[name] = String(ids[choice.pick % ids.length]);
      }
    }
    let path = fillPath(operation.path, values);
    if (!spec.slash && path.endsWith('/')) path = path.slice(0, -1);
    if (spec.query !== '') path += `${path.includes('?') ? '&' : '?'}${spec.query}`;

    const headers: Record<string, string> = { ...spec.headers };
    const authorization = authHeader(spec.auth, caller, this.world.revokedToken);
    if (authorization !== undefined) headers.authorization = authorization;
    const resolveRef = (ref: WorldRef) => worldValue(ref, caller, stranger);

    let body: SentRequest['body'];
    let plainBody: unknown;
    let wellFormed = operation.requestBody === undefined && spec.body.kind === 'none';
    let description = '';
    switch (spec.body.kind) {
      case 'json':
        body = writeJson(spec.body.value, resolveRef);
        if (spec.body.contentType !== null) headers['content-type'] = spec.body.contentType;
        plainBody = plainValue(spec.body.value, resolveRef);
        wellFormed =
          operation.requestBody?.mediaType === 'application/json' &&
          isWellFormedJsonType(spec.body.contentType) &&
          plainBody !== undefined &&
          this.isValidBody(operation, plainBody);
        break;
      case 'raw':
        body = spec.body.data;
        if (spec.body.contentType !== null) headers['content-type'] = spec.body.contentType;
        description = Buffer.isBuffer(body) ? `bytes ${body.toString('hex').slice(0, 80)}` : '';
        break;
      case 'multipart': {
        const made = multipartRequest(spec.body.spec);
        body = made.body;
        if (made.contentType) headers['content-type'] = made.contentType;
        wellFormed = isValidForm(spec.body.spec);
        description = `multipart ${JSON.stringify(spec.body.spec, (key, value) => (key === 'random' ? undefined : value))}`;
        break;
      }
      case 'none':
        break;
    }
    return {
      method: operation.method,
      path,
      headers,
      body,
      description,
      idClass,
      authValid: spec.auth.kind === 'caller',
      wellFormed: wellFormed && (operation.anonymous || spec.auth.kind === 'caller'),
      plainBody,
    };
  }

  /** The body passes the operation's request schema once trimmed (docs/api-conventions.md), and holds only clean text. */
  private isValidBody(operation: Operation, body: unknown): boolean {
    if (!allTextClean(body)) return false;
    const validate = this.checker.validator(`${operation.key} request`, operation.requestBody!.schema);
    return validate(trimmed(body)) === true;
  }
}

/** The kind of object an id parameter names: the path segment before it says ("/app/items/{id}/" → item). */
function kindOf(path: string, param: string): IdKind {
  const segments = path.split('/');
  const segment = segments[segments.indexOf(`{${param}}`) - 1];
  const kind = segment === undefined ? undefined : KIND_OF_SEGMENT[segment];
  if (!kind) throw new Error(`no fuzz fixture for {${param}} in ${path}: add its kind to KIND_OF_SEGMENT`);
  return kind;
}

function authHeader(auth: AuthChoice, caller: Party, revokedToken: string): string | undefined {
  switch (auth.kind) {
    case 'caller':
      return [`Token ${caller.token}`, `token ${caller.token}`, `TOKEN   ${caller.token}  `][auth.style % 3];
    case 'none':
      return undefined;
    case 'revoked':
      return `Token ${revokedToken}`;
    case 'bad':
      return auth.header;
  }
}

function worldValue(ref: WorldRef, caller: Party, stranger: Party): unknown {
  switch (ref.name) {
    case 'ownMedia':
      return caller.ids.media[0];
    case 'foreignMedia':
      return stranger.ids.media[0];
    case 'callerPassword':
      return caller.password;
    case 'callerEmail':
      return caller.email;
    case 'strangerEmail':
      return stranger.email;
  }
}

function allTextClean(value: unknown): boolean {
  if (typeof value === 'string') return isCleanText(value);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).every(([key, member]) => isCleanText(key) && allTextClean(member));
  return true;
}

function trimmed(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return UNTRIMMED_FIELDS.has(key) ? value : value.trim();
  if (Array.isArray(value)) return value.map((element) => trimmed(element));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, trimmed(member, name)]));
  return value;
}

/** A name (clean, not blank, at most 255 characters) and a real image, nothing else. */
function isValidForm(spec: MultipartSpec): boolean {
  if (spec.kind !== 'form' || spec.parts.length !== 2) return false;
  const name = spec.parts.find((part) => part.field === 'name' && 'value' in part);
  const file = spec.parts.find((part) => part.field === 'file' && 'bytes' in part);
  if (!name || !file || !('value' in name) || !('bytes' in file)) return false;
  const text = name.value.trim();
  return text !== '' && [...text].length <= 255 && isCleanText(text) && (file.bytes === 'png' || file.bytes === 'jpeg');
}

function locationProblems(response: ObservedResponse): string[] {
  let url: unknown;
  try {
    url = (JSON.parse(response.text) as { url?: unknown }).url;
  } catch {
    return [];
  }
  if (url === undefined) return [];
  const location = response.headers.get('location');
  return location === url ? [] : [`201 with Location ${JSON.stringify(location)}, not the new object's url ${JSON.stringify(url)}`];
}

/** The request and response, short enough to read in a failure message. */
export function describe(request: SentRequest, response: ObservedResponse): string {
  const body =
    request.body === undefined ? '(none)' : typeof request.body === 'string' ? excerpt(request.body) : request.description || '(binary)';
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${value.length > 80 ? `${value.slice(0, 80)}…` : value}`)
    .join(' | ');
  const responseHeaders = ['content-type', 'www-authenticate', 'allow', 'retry-after', 'location']
    .flatMap((name) => (response.headers.get(name) === null ? [] : [`${name}: ${response.headers.get(name)}`]))
    .join(' | ');
  return [
    `  request:  ${request.method} ${request.path.length > 200 ? `${request.path.slice(0, 200)}…` : request.path}`,
    `  headers:  ${headers || '(none)'}`,
    `  body:     ${body}`,
    `  response: ${response.status} ${responseHeaders}`,
    `  body:     ${excerpt(response.text)}`,
  ].join('\n');
}
