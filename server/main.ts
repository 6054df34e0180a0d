/**
 * @module The local server: real HTTP on HOST:PORT (default 127.0.0.1:4321) over the build output and
 * the same handlers and edge step as production, with one JSON log line per request, an X-Request-Id
 * on every response and graceful shutdown.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, withBaseHeaders, type App } from './app.ts';
import { bodyOf, withBody } from './static-files.ts';
import { toRequest, sendResponse } from './node-http.ts';
import { parseConfig, type Config } from '../src/config.ts';
import { createDeps, type Deps } from '../src/adapters/composition-root.ts';
import { errorResponse } from '../src/http/responses.ts';
import { internalError } from '../src/http/answers.ts';
import { errorText } from '../src/core/error-text.ts';

/** Methods a WHATWG Request refuses to carry. */
const UNSUPPORTED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
/** Thrown to skip to sending a response already chosen. */
const RESPONDED = Symbol('responded');

export const PROJECT_ROOT = resolve(fileURLToPath(import.meta.url), '../..');

/**
 * The server's dependencies, ready-made (tests, benchmarks), or the settings they are built from (`main`
 * passes the environment's, read once).
 */
export type ServerOptions = ({ deps: Deps; config?: never } | { config: Config; deps?: never }) & ServerSettings;

export interface ServerSettings {
  host?: string;
  port?: number;
  root?: string;
  distDir?: string;
  trustProxy?: boolean;
  /** Where request log lines go (default stdout). */
  log?: (line: string) => void;
  /** Sees every request with a copy of its response (tests check each answer against the contract). */
  inspect?: (request: Request, response: Response) => void;
}

export interface RunningServer {
  url: string;
  server: Server;
  app: App;
  deps: Deps;
  close(): Promise<void>;
}

/**
 * A log to stdout that writes once per turn of the event loop, however many requests that turn finished
 * (each write is a system call; under load one turn finishes many). Lines left at exit are written then.
 */
function batchedStdout(): (line: string) => void {
  let pending: string[] = [];
  const flush = () => {
    const out = pending.join('');
    pending = [];
    process.stdout.write(out);
  };
  process.once('exit', () => {
    if (pending.length) writeSync(1, pending.join(''));
  });
  return (line) => {
    if (!pending.length) setImmediate(flush);
    pending.push(`${line}\n`);
  };
}

/** What the request handler needs from the running server. */
interface Handling {
  app: App;
  log: (line: string) => void;
  trustProxy: boolean;
  inspect?: ServerSettings['inspect'];
  /** The server's own URL, known once it listens. */
  base: () => string;
}

const pathOf = (req: IncomingMessage) => (req.url ?? '').slice(0, 500);

/** The app's answer to one request, or the contract's Error body; undefined when the client left before it. */
async function answer(
  req: IncomingMessage,
  h: Handling,
  id: string,
  signal: AbortSignal,
): Promise<Response | undefined> {
  let response: Response | undefined;
  try {
    if (UNSUPPORTED_METHODS.has((req.method ?? '').toUpperCase())) {
      // Methods a web Request cannot carry (and this service has no use for).
      response = errorResponse(405, `Method ${req.method} is not supported`, { Allow: 'GET, HEAD, POST, OPTIONS' });
      throw RESPONDED;
    }
    const request = toRequest(req, { base: h.base(), trustProxy: h.trustProxy, id }, signal);
    response = await h.app.handle(request);
    if (h.inspect) h.inspect(request, bodyOf(response) ? withBody(response) : response.clone());
  } catch (e) {
    if (e !== RESPONDED) {
      if (signal.aborted) {
        // The client went away mid-request: nobody to answer, and not a server fault.
        h.log(
          JSON.stringify({
            time: new Date().toISOString(),
            method: req.method,
            path: pathOf(req),
            status: 499,
            id,
            note: 'client closed the connection',
          }),
        );
        return undefined;
      }
      response = internalError(id, e, (event, fields) =>
        h.log(
          JSON.stringify({ time: new Date().toISOString(), event, method: req.method, path: pathOf(req), ...fields }),
        ),
      );
    }
    response ??= internalError(id, e); // only a `RESPONDED` throw set it already
  }
  return response;
}

/** One request: the answer, sent with its X-Request-Id, then one log line. */
async function handle(req: IncomingMessage, res: ServerResponse, h: Handling): Promise<void> {
  const started = performance.now();
  const id = randomUUID();
  const controller = new AbortController();
  // Abort only for a client that left before the answer was complete (an abort builds a DOMException).
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const response = await answer(req, h, id, controller.signal);
  if (!response) return;
  const status = response.status;
  const known = bodyOf(withBaseHeaders(response));
  if (!known) response.headers.set('X-Request-Id', id);
  try {
    await sendResponse(res, response, req.method === 'HEAD', known, { 'x-request-id': id });
  } catch {
    res.destroy();
  }
  h.log(
    JSON.stringify({
      time: new Date().toISOString(),
      method: req.method,
      path: pathOf(req),
      // A client that left before the answer never got it: logged as nginx's 499, not as what was answered.
      status: controller.signal.aborted ? 499 : status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      id,
      ...(controller.signal.aborted ? { note: 'client closed the connection' } : {}),
    }),
  );
}

/** Requests Node's parser refuses still get the contract's Error body, not a bare status line. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || (err as { code?: string }).code === 'ECONNRESET') return void socket.destroy();
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({
    error: status === 431 ? 'Request headers are too large' : 'Malformed HTTP request',
    status,
  });
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Starts the local server over the build output; resolves once it listens. */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const root = opts.root ?? PROJECT_ROOT;
  const deps = opts.deps !== undefined ? opts.deps : createDeps({ config: opts.config, dataDir: join(root, 'build') });
  void deps.content; // loaded now: fail at start, not on the first request, when the build is missing
  const app = await createApp({ distDir: opts.distDir ?? join(root, 'dist'), deps });
  const host = opts.host ?? '127.0.0.1';
  let base = '';
  const h: Handling = {
    app,
    log: opts.log ?? batchedStdout(),
    trustProxy: opts.trustProxy ?? false,
    inspect: opts.inspect,
    base: () => base,
  };

  const server = createServer((req, res) => handle(req, res, h));
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 4321, host, () => ok());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: base,
    server,
    app,
    deps,
    close: () =>
      new Promise<void>((ok) => {
        app.close();
        server.close(() => ok());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      }),
  };
}

/**
 * `node server/main.ts`: serve until SIGINT/SIGTERM. The environment is read here, once; a malformed
 * setting stops start-up with a message naming it.
 */
export async function main(): Promise<void> {
  const config = parseConfig(process.env);
  const running = await startServer({ host: config.host, port: config.port, trustProxy: config.trustProxy, config });
  const content = running.deps.content;
  console.log(
    [
      `Kartage is serving ${running.url}`,
      `  site origin: ${content.origin} (${content.entries().length} pages, built ${content.builtAt})`,
      `  engines: ${running.deps.describe()}`,
      `  functions: ${running.app.functions.map((op) => op.id).join(', ')}`,
      '  Ctrl+C to stop',
    ]
      .filter(Boolean)
      .join('\n'),
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: closing connections…`);
    await running.close();
    console.log('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    console.error(errorText(e));
    process.exit(1);
  });
}
