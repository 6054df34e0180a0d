/**
 * @module Node's http server <-> web-standard Request/Response, streaming both ways. The client's socket
 * address replaces any client-sent `x-real-ip` (the header Vercel's platform sets), so a spoofed
 * forwarding header never reaches the handlers unless TRUST_PROXY says so.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { forwardedClient, parseAddress } from '../src/http/client-address.ts';

/** Client addresses already parsed (raw X-Forwarded-For and socket address -> address), bounded. */
const addresses = new Map<string, string>();
const ADDRESS_MEMO = 4096;

export interface ToRequestOptions {
  /** Base URL for the request (scheme and host), e.g. http://127.0.0.1:4321. */
  base: string;
  /** Trust `X-Forwarded-For` from a proxy in front (its last hop is the client). */
  trustProxy: boolean;
  /** This request's id (sent back as X-Request-Id, quoted by a 500's body). */
  id?: string;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'x-real-ip']);

/**
 * The request body as a web stream, with backpressure. Not `Readable.toWeb`: when a reader cancels (a body
 * over its limit), a chunk already emitted still reaches that adapter's `enqueue` on the closed controller,
 * an uncaught exception that takes the server down. Here everything after close or cancel is ignored.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        });
        req.on('end', () => {
          if (done) return;
          done = true;
          controller.close();
        });
        const fail = (e: unknown) => {
          if (done) return;
          done = true;
          controller.error(e);
        };
        req.on('error', fail);
        req.on('close', () => {
          if (!req.complete) fail(new Error('the client closed the connection before the body ended'));
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        // The handler has answered (413, say): the rest of the body is read and dropped, so the answer
        // still reaches the client instead of a reset socket.
        done = true;
        req.resume();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

export function toRequest(req: IncomingMessage, opts: ToRequestOptions, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (HOP_BY_HOP.has(name.toLowerCase())) continue;
    try {
      headers.append(name, req.rawHeaders[i + 1]!);
    } catch {
      // A header value a web Headers object refuses (odd bytes): drop it rather than fail the request.
    }
  }
  // The socket's address, or behind a proxy we run X-Forwarded-For's last hop, normalised (src/http/client-address.ts).
  const socket = req.socket.remoteAddress ?? '';
  const forwarded = opts.trustProxy ? req.headers['x-forwarded-for'] : undefined;
  const raw = typeof forwarded === 'string' ? forwarded : (forwarded?.join(',') ?? '');
  // Parsing an address is a few regular expressions; a client sends many requests from one address.
  const memo = `${raw}|${socket}`;
  let client = addresses.get(memo);
  if (client === undefined) {
    client = opts.trustProxy ? forwardedClient(raw, socket) : (parseAddress(socket) ?? socket);
    if (addresses.size >= ADDRESS_MEMO) addresses.clear();
    addresses.set(memo, client);
  }
  headers.set('x-real-ip', client);
  // The id this server logs and answers with X-Request-Id; a client cannot choose it (the pipeline quotes it).
  headers.delete('x-vercel-id');
  if (opts.id) headers.set('x-request-id', opts.id);
  else headers.delete('x-request-id');
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  let path = req.url ?? '/';
  // Absolute-form target (`GET http://host/path`, RFC 9112 section 3.2.2): route on its path.
  if (/^https?:\/\//i.test(path)) {
    try {
      const u = new URL(path);
      path = u.pathname + u.search;
    } catch {
      path = '/';
    }
  }
  if (!path.startsWith('/')) path = `/${path}`;
  let url: string;
  try {
    url = new URL(path.replace(/^\/+/, '/'), opts.base).href;
  } catch {
    url = new URL('/', opts.base).href;
  }
  // The signal only where a handler can still be working after the client left (a body being read, an
  // MCP stream); tying a Request to a signal costs about as much as the rest of a static answer.
  return new Request(url, {
    method,
    headers,
    body: hasBody ? bodyStream(req) : undefined,
    duplex: 'half',
    ...(hasBody ? { signal } : {}),
  } as RequestInit);
}

/**
 * Ends `res` (with `bytes`, when given) and settles once it is finished, or closed first: a client that
 * left never emits 'finish', and a wait for it alone would hold the request (and its log line) forever.
 */
function end(res: ServerResponse, bytes?: Uint8Array): Promise<void> {
  return new Promise<void>((ok) => {
    if (res.destroyed) return ok(); // closed before the answer was ready: nothing to write to
    res.once('close', ok);
    if (bytes) res.end(bytes, ok);
    else res.end(ok);
  });
}

/**
 * Writes `response` to `res`. With `known` (a static file's answer: its bytes and its headers as a plain
 * object, which `extra` extends), head and body go out in one write, with no stream and no walk of the
 * Headers object.
 */
export async function sendResponse(
  res: ServerResponse,
  response: Response,
  isHead: boolean,
  known?: { bytes: Uint8Array; head: Record<string, string> },
  extra: Record<string, string> = {},
): Promise<void> {
  if (known) {
    res.writeHead(response.status, Object.assign({}, known.head, extra));
    await end(res, isHead ? undefined : known.bytes);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key === 'set-cookie') return;
    headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body || isHead) {
    // Not awaited: a body teed for a second reader (the tests' contract check reads a clone) settles its cancel
    // only once both branches are done, so waiting here would hold a HEAD answer for ever.
    response.body?.cancel().catch(() => {});
    await end(res);
    return;
  }
  if (!headers['content-type']?.toString().startsWith('text/event-stream')) {
    // A whole answer (JSON, markdown, HTML): one write, without a stream pipeline per response.
    await end(res, new Uint8Array(await response.arrayBuffer()));
    return;
  }
  // Flush each chunk as it comes (SSE answers from the MCP endpoint stream).
  res.flushHeaders();
  // The DOM and node:stream/web ReadableStream types differ only in their declarations.
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), res);
}
