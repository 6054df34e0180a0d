/**
 * @module A real, throwaway `redis-server` for tests, plus the small RESP2 client used to talk to it.
 * Tests run the real Upstash client code against real Redis (through `upstash-bridge.ts`) instead of a
 * hand-written fake, so they catch what a fake would get wrong. The RESP client is hand-written on
 * node:net because the project takes no Redis driver dependency just for tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const NOT_INSTALLED = "redis-server is not installed: install Debian's redis-server package (.ci/run does this)";

/** An error reply from Redis (`-ERR ...`); kept as a value because it can sit inside an EXEC array. */
export class RespError {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

/** A decoded RESP2 reply: simple string (string), bulk string (Buffer), integer, nil (null), error, array. */
export type RespValue = string | Buffer | number | null | RespError | RespValue[];

/** Where a reply ends in a buffer, or undefined when more bytes are needed. */
type Parsed = { value: RespValue; end: number } | undefined;

function parseReply(buf: Buffer, start: number): Parsed {
  const eol = buf.indexOf('\r\n', start);
  if (eol < 0) return undefined;
  const type = String.fromCharCode(buf[start] ?? 0);
  const line = buf.toString('utf8', start + 1, eol);
  const next = eol + 2;
  switch (type) {
    case '+':
      return { value: line, end: next };
    case '-':
      return { value: new RespError(line), end: next };
    case ':':
      return { value: Number(line), end: next };
    case '$': {
      const len = Number(line);
      if (len < 0) return { value: null, end: next };
      if (buf.length < next + len + 2) return undefined;
      return { value: Buffer.from(buf.subarray(next, next + len)), end: next + len + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { value: null, end: next };
      const items: RespValue[] = [];
      let pos = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buf, pos);
        if (!item) return undefined;
        items.push(item.value);
        pos = item.end;
      }
      return { value: items, end: pos };
    }
    default:
      throw new Error(`RESP protocol error: unexpected reply type ${JSON.stringify(type)}`);
  }
}

function encodeCommand(args: readonly (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const arg of args) {
    const bytes = typeof arg === 'string' ? Buffer.from(arg, 'utf8') : arg;
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

/** One RESP2 connection; replies are matched to commands in order, so several batches may be in flight. */
export class RespConnection {
  private readonly socket: Socket;
  private readonly waiting: { resolve: (v: RespValue) => void; reject: (e: Error) => void }[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  private failure: Error | undefined;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Error('Redis connection closed')));
  }

  /** Connects to Redis on the loopback interface. */
  static connect(port: number, host = '127.0.0.1'): Promise<RespConnection> {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ port, host });
      socket.setNoDelay(true);
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new RespConnection(socket));
      });
    });
  }

  /** False once the socket failed or was closed; a new connection is then needed. */
  get usable(): boolean {
    return !this.failure;
  }

  /** Sends the commands in one write (so nothing interleaves) and resolves with their replies, in order. */
  send(commands: readonly (readonly (string | Buffer)[])[]): Promise<RespValue[]> {
    if (this.failure) return Promise.reject(this.failure);
    const replies = commands.map(
      () => new Promise<RespValue>((resolve, reject) => this.waiting.push({ resolve, reject })),
    );
    this.socket.write(Buffer.concat(commands.map(encodeCommand)));
    return Promise.all(replies);
  }

  /** Closes the connection; commands still waiting are rejected. */
  close(): void {
    this.fail(new Error('Redis connection closed by the client'));
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    let pos = 0;
    try {
      for (;;) {
        const parsed = parseReply(this.buffer, pos);
        if (!parsed) break;
        pos = parsed.end;
        this.waiting.shift()?.resolve(parsed.value);
      }
    } catch (err) {
      this.fail(err as Error);
      this.socket.destroy();
      return;
    }
    this.buffer = this.buffer.subarray(pos);
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.splice(0)) w.reject(this.failure);
  }
}

/** True when a `redis-server` executable is on PATH. */
export function hasRedisServer(): boolean {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, 'redis-server'), fsConstants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A running throwaway Redis. */
export interface RunningRedis {
  port: number;
  /** Working directory (holds the append-only file when durable). */
  dir: string;
  /** The redis-server process, for fault tests (SIGSTOP stalls it, SIGKILL kills it). */
  process: ChildProcess;
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** Stops Redis (SIGTERM, waits for it to exit) and removes its working directory. */
  stop(): Promise<void>;
}

export interface StartRedisOptions {
  /** Port to bind (a restart on the same port); default a free one. */
  port?: number;
  /** Working directory to reuse (a restart keeps its data); default a new temporary one. */
  dir?: string;
  /** Append-only file with fsync on every write, so a killed Redis restarts with its data. */
  durable?: boolean;
}

/** Starts `redis-server` on a loopback port (no persistence unless `durable`) and waits until it answers PING. */
export async function startRedis(opts: StartRedisOptions = {}): Promise<RunningRedis> {
  if (!hasRedisServer()) throw new Error(NOT_INSTALLED);
  if (opts.port) return startOnce(opts.port, opts);
  // The free port can be taken by someone else between probing and binding; try again then.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(await freePort(), opts);
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

async function startOnce(port: number, opts: StartRedisOptions): Promise<RunningRedis> {
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'redis-test-')));
  const persistence = opts.durable ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  let spawnError: Error | undefined;
  child.once('error', (err) => {
    spawnError = err;
  });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
    if (!opts.dir) await rm(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (spawnError || child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`redis-server did not start on port ${port}: ${spawnError?.message ?? output.trim()}`);
    }
    try {
      const conn = await RespConnection.connect(port);
      try {
        const [reply] = await conn.send([['PING']]);
        if (reply === 'PONG') break;
      } finally {
        conn.close();
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server on port ${port} did not answer PING within 10 s: ${output.trim()}`);
    }
    await sleep(25);
  }
  return { port, dir, process: child, url: `redis://127.0.0.1:${port}`, stop };
}
