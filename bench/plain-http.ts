// A JSON request to a service on this host through node:http with a kept-alive agent: the bench
// scripts that measure one service at a time (miss-cpu.ts, instructions.ts) send their load with it.
import { type Agent, request } from 'node:http';

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
