// One webhook attempt over HTTP: to the address checked (webhook-address.ts), never resolved
// again; no redirect followed (a 3xx is a failure); 15 seconds for the whole exchange; at most
// a few kilobytes of the answer read.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveDeliveryAddress } from './webhook-address.ts';

export const DELIVERY_TIMEOUT_MS = 15_000;
/** Bytes of the receiver's answer read at most (the rest is dropped with the connection). */
export const MAX_RESPONSE_BYTES = 4096;

export interface AttemptResult {
  /** The HTTP status (null: no answer). */
  status: number | null;
  /** Why it failed (null: a 2xx). */
  error: string | null;
}

export async function postWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  allowPrivate: boolean,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<AttemptResult> {
  let target: { address: string; family: 4 | 6 };
  try {
    target = await resolveDeliveryAddress(rawUrl, allowPrivate);
  } catch (error) {
    return { status: null, error: error instanceof Error ? error.message : String(error) };
  }
  const url = new URL(rawUrl);
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Profile-Service-Webhooks/1' },
        lookup,
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        const chunks: Buffer[] = [];
        const done = () => {
          const ok = status >= 200 && status < 300;
          const text = Buffer.concat(chunks).toString('utf8').slice(0, 200).replace(/\s+/g, ' ').trim();
          finish({ status, error: ok ? null : `HTTP ${status}${text ? `: ${text}` : ''}` });
        };
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (chunks.length < 1 && chunk.length > 0) chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES));
          if (read >= MAX_RESPONSE_BYTES) done();
        });
        response.on('end', done);
        response.on('error', (error) => finish({ status, error: error.message }));
      },
    );
    const timer = setTimeout(() => finish({ status: null, error: `no answer within ${timeoutMs / 1000} s` }), timeoutMs);
    request.on('error', (error) => finish({ status: null, error: error.message }));
    request.end(body);
  });
}
