/**
 * @module The baselines for the throughput benchmark, each serving one folder over node:http. Forked by
 * the benchmark; reports `{ type: 'ready', url }`.
 *
 *   node bench/plain-static.ts <folder> [plain|sirv|memory]
 *
 * - plain (default): node:http + fs, no framework, no caching, no ETag: 200 with the file's bytes and a
 *   Content-Type from the extension, or 404.
 * - sirv: the `sirv` package (the static server a Node user would pick), ETags on, production mode (it
 *   walks the folder once at start, then streams each file from disk per request).
 * - memory: the limit on this machine: node:http answering each file's bytes from memory after the first
 *   hit, with only Content-Type and Content-Length. No server can do the same work faster.
 */
import { createServer, type RequestListener } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import sirv from 'sirv';

const root = normalize(process.argv[2] ?? '.');
const mode = process.argv[3] ?? 'plain';
const TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

const plain: RequestListener = async (req, res) => {
  const path = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
  if (!path.startsWith(root)) return void res.writeHead(403).end();
  try {
    const body = await readFile(path);
    res.writeHead(200, {
      'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
      'Content-Length': body.length,
    });
    res.end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
};

const memory = (): RequestListener => {
  const files = new Map<string, { body: Buffer; type: string }>();
  return async (req, res) => {
    let hit = files.get(req.url ?? '/');
    if (!hit) {
      const path = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
      if (!path.startsWith(root)) return void res.writeHead(403).end();
      try {
        hit = { body: await readFile(path), type: TYPES[extname(path)] ?? 'application/octet-stream' };
      } catch {
        return void res.writeHead(404).end('not found');
      }
      files.set(req.url ?? '/', hit);
    }
    res.writeHead(200, { 'Content-Type': hit.type, 'Content-Length': hit.body.length });
    res.end(hit.body);
  };
};

const handlers: Record<string, () => RequestListener> = {
  plain: () => plain,
  memory,
  sirv: () => {
    const serve = sirv(root, { etag: true, dev: false });
    return (req, res) => serve(req, res, () => void res.writeHead(404).end('not found'));
  },
};
if (!handlers[mode]) throw new Error(`mode must be one of ${Object.keys(handlers).join(', ')}, not ${mode}`);
const server = createServer(handlers[mode]());
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  const url = `http://127.0.0.1:${a && typeof a === 'object' ? a.port : 0}`;
  if (process.send) process.send({ type: 'ready', url, pid: process.pid });
  else console.log(url);
});
process.on('message', (m: { type: string }) => {
  if (m.type === 'stop') server.close(() => process.exit(0));
  if (m.type === 'memory') process.send!({ type: 'memory', usage: process.memoryUsage() });
});
process.on('disconnect', () => process.exit(0));
