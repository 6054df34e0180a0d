/**
 * @module The baseline for the throughput benchmark: a plain Node static file server (node:http + fs,
 * no framework, no caching, no ETag), serving one folder. It answers 200 with the file's bytes and a
 * Content-Type from the extension, or 404. Forked by the benchmark; reports `{ type: 'ready', url }`.
 *
 *   node bench/plain-static.ts <folder>
 */
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const root = normalize(process.argv[2] ?? '.');
const TYPES: Record<string, string> = { '.json': 'application/json; charset=utf-8', '.md': 'text/markdown; charset=utf-8', '.html': 'text/html; charset=utf-8' };

const server = createServer(async (req, res) => {
  const path = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
  if (!path.startsWith(root)) return void res.writeHead(403).end();
  try {
    const body = await readFile(path);
    res.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream', 'Content-Length': body.length });
    res.end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
});
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
