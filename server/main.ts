/**
 * @module The local server: real HTTP on HOST:PORT (default 127.0.0.1:4321) over the build output and
 * the same handlers and edge step as production, with one JSON log line per request, an X-Request-Id
 * on every response and graceful shutdown.
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, type App } from './app.ts';
import { toRequest, sendResponse } from './node-http.ts';
import { createDeps, withDeps, type Deps } from '../src/adapters/deps.ts';
import { errorResponse } from '../src/adapters/http.ts';

export const PROJECT_ROOT = resolve(fileURLToPath(import.meta.url), '../..');

export interface ServerOptions {
  host?: string;
  port?: number;
  root?: string;
  distDir?: string;
  deps?: Deps;
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

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const root = opts.root ?? PROJECT_ROOT;
  const deps = opts.deps ?? createDeps({ dataDir: join(root, 'build') });
  deps.content(); // fail at start, not on the first request, when the build is missing
  const app = await createApp({ root, distDir: opts.distDir ?? join(root, 'dist'), deps });
  const log = opts.log ?? ((line: string) => process.stdout.write(line + '\n'));
  const host = opts.host ?? '127.0.0.1';
  let base = '';

  const server = createServer(async (req, res) => {
    const started = performance.now();
    const id = randomUUID();
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    let status = 500;
    let response: Response;
    try {
      const request = toRequest(req, { base, trustProxy: opts.trustProxy ?? false }, controller.signal);
      // Handlers find this server's dependencies through `deps()` (two servers may share a process).
      response = await withDeps(deps, () => app.handle(request));
      opts.inspect?.(request, response.clone());
    } catch (e) {
      log(JSON.stringify({ time: new Date().toISOString(), level: 'error', id, method: req.method, path: req.url, error: String((e as Error)?.stack ?? e) }));
      response = errorResponse(500, `Internal error (request ${id})`);
    }
    status = response.status;
    response.headers.set('X-Request-Id', id);
    try {
      await sendResponse(res, response, req.method === 'HEAD');
    } catch {
      res.destroy();
    }
    log(JSON.stringify({ time: new Date().toISOString(), method: req.method, path: (req.url ?? '').slice(0, 500), status, ms: Math.round((performance.now() - started) * 10) / 10, id }));
  });
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
        server.close(() => ok());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      }),
  };
}

/** `node server/main.ts`: serve until SIGINT/SIGTERM. */
export async function main(): Promise<void> {
  const host = process.env.HOST || '127.0.0.1';
  const port = Number(process.env.PORT || 4321);
  const running = await startServer({ host, port, trustProxy: process.env.TRUST_PROXY === '1' });
  const missing = running.app.missing.map((r) => r.id);
  console.log(
    [
      `Kartage is serving ${running.url}`,
      `  site origin: ${running.deps.content().data.origin} (${running.deps.content().data.pages.length} pages, built ${running.deps.content().data.builtAt})`,
      `  engines: ${running.deps.describe()}`,
      `  functions: ${running.app.functions.map((f) => f.route.id).join(', ')}`,
      missing.length ? `  not built yet (answer 404): ${missing.join(', ')}` : undefined,
      '  Ctrl+C to stop',
    ].filter(Boolean).join('\n'),
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
    console.error(String(e?.message ?? e));
    process.exit(1);
  });
}
