/**
 * @module A small Upstash-REST-compatible HTTP server in front of a real local Redis, so tests run the
 * real `@upstash/redis` and `@upstash/ratelimit` code end to end (no npm package provides such a server).
 * It speaks what those clients use: `POST /` (one command), `POST /pipeline`, `POST /multi-exec`,
 * Bearer auth and the `Upstash-Encoding: base64` response encoding. It also smooths over the one
 * difference that matters between Upstash and plain Redis 7: Upstash accepts the
 * `#!lua flags=allow-key-locking` shebang that @upstash/ratelimit puts on its scripts, Redis rejects it.
 * Faults (`down`, a delay) can be switched on to test how callers behave when Upstash is unreachable/slow.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { RespConnection, RespError, type RespValue } from './redis-server.ts';

/** Fault injected by a test: none, refuse every request (network error), or answer slowly. */
export type BridgeFault = 'none' | 'down' | { delayMs: number };

/** A running bridge. */
export interface UpstashBridge {
  /** Base URL for `new Redis({ url, token })`. */
  url: string;
  token: string;
  /** Closes the HTTP server, its client connections and its Redis connection. */
  stop(): Promise<void>;
  /** simulate faults */
  setFault(f: BridgeFault): void;
}

type Command = string[];
type JsonValue = string | number | null | JsonValue[];
type Outcome = { result: RespValue } | { error: string };

/** Thrown for a bad request; answered as HTTP 400 `{ error }`. */
class BadRequest extends Error {}

// Connection-state commands would corrupt the shared connection; Upstash's REST API has no such commands
// either (transactions go through /multi-exec).
const REFUSED = new Set([
  'MULTI',
  'EXEC',
  'DISCARD',
  'WATCH',
  'UNWATCH',
  'SUBSCRIBE',
  'PSUBSCRIBE',
  'SSUBSCRIBE',
  'UNSUBSCRIBE',
  'PUNSUBSCRIBE',
  'SUNSUBSCRIBE',
  'MONITOR',
  'SELECT',
  'QUIT',
  'RESET',
  'HELLO',
  'AUTH',
  'SWAPDB',
]);
// These wait on the server; on the shared connection they would hold up every other request.
const BLOCKING = new Set([
  'BLPOP',
  'BRPOP',
  'BLMOVE',
  'BRPOPLPUSH',
  'BLMPOP',
  'BZPOPMIN',
  'BZPOPMAX',
  'BZMPOP',
  'WAIT',
  'WAITAOF',
]);

const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');
const SHEBANG = /^#!lua[^\n]*/;

/** Starts the bridge on 127.0.0.1 (a free port) in front of Redis on `redisPort`. */
export async function startUpstashBridge(opts: { redisPort: number; token?: string }): Promise<UpstashBridge> {
  const token = opts.token ?? randomBytes(18).toString('base64url');
  let fault: BridgeFault = 'none';
  // sha1(script as the client sent it) -> sha1(script as Redis stored it, shebang stripped).
  const shaToRedis = new Map<string, string>();

  let stopped = false;
  let shared: RespConnection | undefined;
  let connecting: Promise<RespConnection> | undefined;
  /** The shared connection, (re)connected when it is missing or broken. */
  const connection = async (): Promise<RespConnection> => {
    if (stopped) throw new Error('bridge stopped');
    if (shared?.usable) return shared;
    connecting ??= RespConnection.connect(opts.redisPort).finally(() => {
      connecting = undefined;
    });
    const conn = await connecting;
    if (stopped) {
      conn.close();
      throw new Error('bridge stopped');
    }
    return (shared = conn);
  };
  const blockingConns = new Set<RespConnection>();

  /** Strips a leading `#!lua` line (keeping its newline, so Lua line numbers in errors still match). */
  const adaptScript = (script: string): string => {
    if (!SHEBANG.test(script)) return script;
    const adapted = script.replace(SHEBANG, '');
    shaToRedis.set(sha1(script), sha1(adapted));
    return adapted;
  };
  const toRedisSha = (sha: string) => shaToRedis.get(sha.toLowerCase()) ?? sha;

  const rewrite = (cmd: Command): Command => {
    const name = cmd[0]!.toUpperCase();
    const sub = cmd[1]?.toUpperCase();
    if (REFUSED.has(name)) throw new BadRequest(`ERR command is not available over REST: '${cmd[0]}'`);
    if ((name === 'EVAL' || name === 'EVAL_RO') && cmd.length > 1)
      return [cmd[0]!, adaptScript(cmd[1]!), ...cmd.slice(2)];
    if ((name === 'EVALSHA' || name === 'EVALSHA_RO') && cmd.length > 1)
      return [cmd[0]!, toRedisSha(cmd[1]!), ...cmd.slice(2)];
    if (name === 'SCRIPT' && sub === 'LOAD' && cmd.length > 2)
      return [...cmd.slice(0, 2), adaptScript(cmd[2]!), ...cmd.slice(3)];
    if (name === 'SCRIPT' && sub === 'EXISTS') return [...cmd.slice(0, 2), ...cmd.slice(2).map(toRedisSha)];
    return cmd;
  };

  /** Redis answers SCRIPT LOAD with the sha of the stripped script; the client expects the original's. */
  const adaptReply = (cmd: Command, reply: RespValue): RespValue => {
    const isLoad = cmd[0]!.toUpperCase() === 'SCRIPT' && cmd[1]?.toUpperCase() === 'LOAD';
    if (isLoad && Buffer.isBuffer(reply) && SHEBANG.test(cmd[2] ?? '')) return Buffer.from(sha1(cmd[2]!));
    return reply;
  };

  /** Sends rewritten commands in order; a batch with a blocking command gets its own short-lived connection. */
  const run = async (wire: Command[]): Promise<RespValue[]> => {
    if (!wire.some((c) => BLOCKING.has(c[0]!.toUpperCase()))) return (await connection()).send(wire);
    if (stopped) throw new Error('bridge stopped');
    const conn = await RespConnection.connect(opts.redisPort);
    blockingConns.add(conn);
    try {
      return await conn.send(wire);
    } finally {
      blockingConns.delete(conn);
      conn.close();
    }
  };

  const runOne = async (cmd: Command): Promise<Outcome> => {
    const [reply] = await run([rewrite(cmd)]);
    return outcome(adaptReply(cmd, reply!));
  };

  const runPipeline = async (cmds: Command[]): Promise<Outcome[]> => {
    const replies = await run(cmds.map(rewrite));
    return replies.map((r, i) => outcome(adaptReply(cmds[i]!, r)));
  };

  const runMultiExec = async (cmds: Command[]): Promise<Outcome[] | { error: string }> => {
    const replies = await run([['MULTI'], ...cmds.map(rewrite), ['EXEC']]);
    const exec = replies[replies.length - 1];
    if (exec instanceof RespError) {
      const queued = replies.slice(1, -1).find((r): r is RespError => r instanceof RespError);
      return { error: queued ? `${exec.message} (${queued.message})` : exec.message };
    }
    if (!Array.isArray(exec)) return { error: 'EXECABORT transaction aborted' };
    return exec.map((r, i) => outcome(adaptReply(cmds[i]!, r)));
  };

  const server = createServer((req, res) => {
    if (fault === 'down') {
      req.socket.destroy();
      return;
    }
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed) send(res, 500, { error: `bridge failure: ${(err as Error).message}` });
    });
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const currentFault = fault;
    if (typeof currentFault === 'object') await new Promise((r) => setTimeout(r, currentFault.delayMs));
    if (res.destroyed) return;
    const url = new URL(req.url ?? '/', 'http://bridge');
    const auth = req.headers.authorization ?? '';
    if (auth !== `Bearer ${token}` && url.searchParams.get('_token') !== token) {
      send(res, 401, { error: 'Unauthorized: missing or invalid auth token' });
      return;
    }
    if (req.method !== 'POST') {
      send(res, 405, { error: `method ${req.method} is not supported by this bridge; send POST with a JSON body` });
      return;
    }
    const base64 = String(req.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
    const path = url.pathname.replace(/\/+$/, '') || '/';
    try {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new BadRequest('ERR request body is not valid JSON');
      }
      if (path === '/') {
        const out = await runOne(toCommand(parsed));
        if ('error' in out) send(res, 400, out);
        else send(res, 200, { result: encode(out.result, base64, true) });
      } else if (path === '/pipeline' || path === '/multi-exec') {
        if (!Array.isArray(parsed) || parsed.length === 0)
          throw new BadRequest('ERR expected a non-empty array of commands');
        const cmds = parsed.map(toCommand);
        const out = path === '/pipeline' ? await runPipeline(cmds) : await runMultiExec(cmds);
        if (!Array.isArray(out)) send(res, 400, out);
        else
          send(
            res,
            200,
            out.map((o) => ('error' in o ? o : { result: encode(o.result, base64, true) })),
          );
      } else {
        send(res, 404, { error: `ERR unsupported path ${path}: use POST /, /pipeline or /multi-exec` });
      }
    } catch (err) {
      if (err instanceof BadRequest) send(res, 400, { error: err.message });
      else throw err;
    }
  };

  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    if (fault === 'down') {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  if (!addr || typeof addr !== 'object') throw new Error('bridge has no address');
  await connection(); // fail early when Redis is not there

  return {
    url: `http://127.0.0.1:${addr.port}`,
    token,
    setFault(f) {
      fault = f;
      // Also drop idle kept-alive sockets now, as a real outage would.
      if (f === 'down') for (const s of sockets) s.destroy();
    },
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      stopped = true;
      await closed;
      shared?.close();
      await connecting?.then(
        (c) => c.close(),
        () => {},
      );
      for (const c of blockingConns) c.close();
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** A JSON command array to Redis arguments: strings as they are, numbers and booleans as text. */
function toCommand(raw: unknown): Command {
  if (!Array.isArray(raw) || raw.length === 0) throw new BadRequest('ERR a command must be a non-empty JSON array');
  const cmd = raw.map((a: unknown) =>
    typeof a === 'string' ? a : typeof a === 'object' ? JSON.stringify(a) : String(a),
  );
  if (!cmd[0]) throw new BadRequest('ERR empty command name');
  return cmd;
}

/** A Redis reply as Upstash's `{ result }` / `{ error }`; bulk strings stay bytes until encoded. */
function outcome(reply: RespValue): Outcome {
  if (reply instanceof RespError) return { error: reply.message };
  return { result: reply };
}

/**
 * A reply in JSON. With base64 every string is base64 of its bytes, except a top-level simple "OK"
 * (that is how Upstash answers, and @upstash/redis decodes exactly so: it keeps a bare "OK" only at the top).
 */
function encode(value: RespValue, base64: boolean, top: boolean): JsonValue {
  if (value === null || typeof value === 'number') return value;
  if (Array.isArray(value)) return value.map((v) => encode(v, base64, false));
  if (value instanceof RespError) return encode(value.message, base64, false);
  if (Buffer.isBuffer(value)) return base64 ? value.toString('base64') : value.toString('utf8');
  if (!base64 || (top && value === 'OK')) return value;
  return Buffer.from(value, 'utf8').toString('base64');
}
