/** A small HTTP client over node:http that can pick its source address (127.0.0.x are distinct clients). */
import { request as httpRequest } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json<T = any>(): T;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Source address of the connection, e.g. 127.0.0.2 (a second client on loopback). */
  from?: string;
}

export function send(url: string, opts: SendOptions = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: opts.method ?? 'GET', headers: opts.headers, localAddress: opts.from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode ?? 0, headers, text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** POST with a JSON body. */
export const postJson = (url: string, body: unknown, opts: SendOptions = {}) =>
  send(url, {
    ...opts,
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...opts.headers },
  });

/** Checks a fetch Response is the contract's Error body with `status` (and an error text matching `mentions`). */
export async function expectErrorResponse(res: Response, status: number, mentions?: RegExp): Promise<void> {
  const { expect } = await import('vitest');
  const { ErrorSchema } = await import('../../src/contract/schemas.ts');
  expect(res.status).toBe(status);
  const body = ErrorSchema.parse(await res.json());
  expect(body.status).toBe(status);
  if (mentions) expect(body.error).toMatch(mentions);
}
