/**
 * @module The child side of the cold-start benchmark (bench/cold-start.ts): in a fresh process, imports
 * one function entry, answers one request through its web-signature handler and prints one JSON line:
 * status, import time, first-answer time and the time since the process started. Nothing else is
 * imported first, so the numbers are the entry's own.
 *
 *   node bench/cold-child.ts <entry> <method> <path> [body] [headers-json]
 */
import { pathToFileURL } from 'node:url';

const [entry, method = 'GET', path = '/', body, headersJson] = process.argv.slice(2);
const t0 = performance.now();
const mod = (await import(pathToFileURL(entry!).href)) as Record<string, unknown> & { default?: unknown };
const t1 = performance.now();
const def = mod.default as Record<string, unknown> | ((r: Request) => Promise<Response>) | undefined;
const handler = (mod[method] ?? (def && typeof def === 'object' ? (def[method] ?? def.fetch) : def)) as
  | ((r: Request) => Promise<Response>)
  | undefined;
if (typeof handler !== 'function')
  throw new Error(`no ${method} handler in ${entry} (exports: ${Object.keys(mod).join(', ')})`);
const headers: Record<string, string> = {
  'x-real-ip': '127.9.0.1',
  ...(body ? { 'content-type': 'application/json' } : {}),
  ...(headersJson ? (JSON.parse(headersJson) as Record<string, string>) : {}),
};
const response = await handler(new Request(`http://localhost${path}`, { method, headers, body: body || undefined }));
await response.text();
const t2 = performance.now();
console.log(
  JSON.stringify({ status: response.status, importMs: t1 - t0, firstAnswerMs: t2 - t1, startToAnswerMs: t2 }),
);
process.exit(0); // sinks and stores may hold timers; the answer is what counts
