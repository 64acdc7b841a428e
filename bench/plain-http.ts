// A JSON request to a service on this host through node:http with a kept-alive agent: the bench
// scripts that measure one service at a time (miss-cpu.ts, instructions.ts) send their load with it,
// as the seeded accounts (npm run seed) whose first profiles they read.
import { type Agent, request } from 'node:http';
import { SEED_PASSWORD, seedEmail } from '../src/cli/seed-data.ts';

export type Call = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) => Promise<{ status: number; text: string }>;

/** Requests to 127.0.0.1:`port` through `agent`, each answered with its status and text. */
export function plainHttp(port: number, agent: Agent): Call {
  return (method, path, headers, body) =>
    new Promise((done, fail) => {
      const req = request(
        { host: '127.0.0.1', port, method, path, headers: { 'content-type': 'application/json', ...headers }, agent },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => done({ status: res.statusCode!, text }));
        },
      );
      req.on('error', fail);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
}

/** The first `accounts` seeded accounts, each logged in, with its first app user's first profile. */
export async function seededProfiles(call: Call, accounts: number): Promise<{ token: string; profileId: number }[]> {
  const found: { token: string; profileId: number }[] = [];
  for (let n = 1; n <= accounts; n++) {
    const login = await call('POST', '/auth/login/', {}, { username: seedEmail(n), password: SEED_PASSWORD });
    const token = (JSON.parse(login.text) as { token: string }).token;
    const auth = { authorization: `Token ${token}` };
    const users = JSON.parse((await call('GET', '/app/users/', auth)).text) as { id: number }[];
    const profiles = JSON.parse((await call('GET', `/app/users/${users[0]!.id}/profiles/`, auth)).text) as { id: number }[];
    found.push({ token, profileId: profiles[0]!.id });
  }
  return found;
}
