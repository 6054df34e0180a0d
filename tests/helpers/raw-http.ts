/**
 * HTTP clients for hostile requests. `timedRequest` is node:http with a deadline (a request that gets no
 * complete answer in time rejects, so a hang fails the test instead of stalling it), Buffer bodies that
 * may hold invalid UTF-8, and chunked bodies (Transfer-Encoding: chunked, no Content-Length).
 * `rawExchange` writes bytes node:http refuses to send (raw bytes in the request line and headers, lying
 * Content-Length, malformed chunking) over node:net and parses the first response itself.
 * Both can pick the source address (127.x.y.z are distinct clients with their own budgets).
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface RawAnswer {
  /** HTTP status; 0 when the server closed the connection without answering. */
  status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The body decoded as UTF-8. */
  text: string;
  json<T = any>(): T;
  /** Milliseconds from sending to the complete answer. */
  ms: number;
}

export interface TimedOptions {
  method?: string;
  headers?: Record<string, string | string[]>;
  /** The body; an array is written chunk by chunk with Transfer-Encoding: chunked and no Content-Length. */
  body?: string | Buffer | (string | Buffer)[];
  /** Source address of the connection, e.g. 127.3.0.7. */
  from?: string;
  /** Deadline for the complete answer (default 10 s). */
  timeoutMs?: number;
}

const answer = (status: number, headers: Record<string, string>, body: Buffer, started: number): RawAnswer => {
  const text = body.toString('utf8');
  return { status, headers, body, text, json: () => JSON.parse(text), ms: Math.round(performance.now() - started) };
};

/** One request over node:http on a fresh connection; rejects when no complete answer arrives in time. */
export function timedRequest(url: string, opts: TimedOptions = {}): Promise<RawAnswer> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const method = opts.method ?? 'GET';
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    // Frame the body explicitly: node:http leaves a body of DELETE or OPTIONS unframed otherwise.
    const headers: Record<string, string | string[]> = { ...opts.headers };
    const has = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name);
    if (opts.body !== undefined && !has('content-length') && !has('transfer-encoding')) {
      if (Array.isArray(opts.body)) headers['Transfer-Encoding'] = 'chunked';
      else headers['Content-Length'] = String(Buffer.byteLength(opts.body));
    }
    const req = httpRequest(url, { method, headers, localAddress: opts.from, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        done(() => resolve(answer(res.statusCode ?? 0, headers, Buffer.concat(chunks), started)));
        req.destroy();
      });
      res.on('error', (e) => done(() => reject(e)));
    });
    const timer = setTimeout(() => {
      done(() => reject(new Error(`no complete answer within ${timeoutMs} ms: ${method} ${url.slice(0, 300)}`)));
      req.destroy();
    }, timeoutMs);
    req.on('error', (e) => done(() => reject(e)));
    if (Array.isArray(opts.body)) {
      for (const chunk of opts.body) if (chunk.length) req.write(chunk);
      req.end();
    } else {
      req.end(opts.body);
    }
  });
}

export interface RawOptions {
  host: string;
  port: number;
  /** Bytes to write; an array is written piece by piece, `gapMs` apart. */
  bytes: Buffer | Buffer[];
  from?: string;
  gapMs?: number;
  /** The request was HEAD: the answer has no body whatever its headers say. */
  head?: boolean;
  /** Deadline for the complete answer (default 10 s). */
  timeoutMs?: number;
}

type Parsed = { status: number; headers: Record<string, string>; body: Buffer } | undefined;

/**
 * The first complete response in `buf` (after any 1xx), or undefined when more bytes are needed.
 * `closed`: the server closed the connection, so a body without length ends here.
 */
export function parseResponse(buf: Buffer, head: boolean, closed: boolean): Parsed | 'malformed' {
  let at = 0;
  for (;;) {
    const end = buf.indexOf('\r\n\r\n', at);
    if (end < 0) return closed && buf.length > at ? 'malformed' : undefined;
    const lines = buf.subarray(at, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/\d\.\d (\d{3})/.exec(lines[0] ?? '');
    if (!m) return 'malformed';
    const status = Number(m[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) return 'malformed';
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    const bodyStart = end + 4;
    if (status >= 100 && status < 200) {
      at = bodyStart;
      continue;
    }
    if (head || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const parts: Buffer[] = [];
      let pos = bodyStart;
      for (;;) {
        const eol = buf.indexOf('\r\n', pos);
        if (eol < 0) return closed ? 'malformed' : undefined;
        const size = parseInt(buf.subarray(pos, eol).toString('latin1').split(';')[0]!.trim(), 16);
        if (!Number.isFinite(size)) return 'malformed';
        pos = eol + 2;
        if (size === 0) {
          // Optional trailers, then an empty line.
          if (buf.length >= pos + 2 && buf[pos] === 13 && buf[pos + 1] === 10)
            return { status, headers, body: Buffer.concat(parts) };
          const trailerEnd = buf.indexOf('\r\n\r\n', pos);
          if (trailerEnd >= 0) return { status, headers, body: Buffer.concat(parts) };
          return closed ? { status, headers, body: Buffer.concat(parts) } : undefined;
        }
        if (buf.length < pos + size + 2) return closed ? 'malformed' : undefined;
        parts.push(buf.subarray(pos, pos + size));
        pos += size + 2;
      }
    }
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (!Number.isInteger(length) || length < 0) return 'malformed';
      if (buf.length < bodyStart + length) return closed ? 'malformed' : undefined;
      return { status, headers, body: buf.subarray(bodyStart, bodyStart + length) };
    }
    return closed ? { status, headers, body: buf.subarray(bodyStart) } : undefined;
  }
}

/**
 * Writes raw bytes on a fresh connection and resolves with the first complete response; status 0 when the
 * server closed the connection without a byte. Rejects on a malformed response or when nothing complete
 * arrives in time.
 */
export function rawExchange(opts: RawOptions): Promise<RawAnswer> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const started = performance.now();
  const pieces = Array.isArray(opts.bytes) ? opts.bytes : [opts.bytes];
  return new Promise((resolve, reject) => {
    let settled = false;
    let buf = Buffer.alloc(0);
    const sock = connect({ host: opts.host, port: opts.port, localAddress: opts.from });
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      fn();
    };
    const tryParse = (closed: boolean) => {
      const parsed = parseResponse(buf, opts.head ?? false, closed);
      if (parsed === 'malformed') {
        finish(() =>
          reject(new Error(`malformed response: ${JSON.stringify(buf.subarray(0, 300).toString('latin1'))}`)),
        );
      } else if (parsed) {
        finish(() => resolve(answer(parsed.status, parsed.headers, parsed.body, started)));
      } else if (closed) {
        finish(() => resolve(answer(0, {}, Buffer.alloc(0), started)));
      }
    };
    const timer = setTimeout(() => {
      finish(() =>
        reject(
          new Error(
            `no complete answer within ${timeoutMs} ms; got ${JSON.stringify(buf.subarray(0, 200).toString('latin1'))}`,
          ),
        ),
      );
    }, timeoutMs);
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      tryParse(false);
    });
    sock.on('close', () => tryParse(true));
    // A reset after the server answered and closed is not a failure; one before any byte is "no answer".
    sock.on('error', () => {});
    sock.once('connect', async () => {
      for (let i = 0; i < pieces.length && !settled && !sock.destroyed; i++) {
        if (i > 0 && opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
        if (!sock.destroyed && sock.writable) sock.write(pieces[i]!);
      }
    });
  });
}
