/**
 * @module `npm run build:vercel`: the Vercel build, offline and without an account. Writes
 * `.vercel/project.json` from the committed `vercel.project.json` (placeholder ids, no secrets), then runs
 * the project's own `vercel build` with `VERCEL_INSTALL_COMPLETED=1` (dependencies are installed already),
 * producing `.vercel/output` (Build Output API v3: static files, functions, middleware, config.json).
 * A `.vercel/project.json` from `vercel link` (a real project) is kept as it is. Extra arguments go to
 * `vercel build` (e.g. `npm run build:vercel -- --prod`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { siteUrl } from '../src/config.ts';

export const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
export const OUTPUT_DIR = join(ROOT, '.vercel', 'output');

/** What the Vercel output is built from: a change to any of these makes it stale. */
const SOURCES = [
  'content',
  'src',
  'public',
  'api',
  'middleware.ts',
  'astro.config.mjs',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'vercel.json',
  'vercel.project.json',
  'build/content.json',
];

function newest(path: string): number {
  const s = statSync(path, { throwIfNoEntry: false });
  if (!s) return 0;
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), s.mtimeMs);
}

/** Why `.vercel/output` must be (re)built, or undefined when it is current. */
export function outputReason(root = ROOT): string | undefined {
  const marker = statSync(join(root, '.vercel', 'output', 'config.json'), { throwIfNoEntry: false });
  if (!marker) return 'no .vercel/output yet';
  if (Math.max(...SOURCES.map((s) => newest(join(root, s)))) > marker.mtimeMs)
    return 'sources changed since the last Vercel build';
  const content = join(root, '.vercel', 'output', 'functions', 'middleware.func', 'build', 'content.json');
  if (!existsSync(content)) return 'the middleware bundle has no content.json';
  const origin = (JSON.parse(readFileSync(content, 'utf8')) as { origin: string }).origin;
  const wanted = siteUrl(process.env);
  if (origin !== wanted) return `SITE_URL changed (${origin} -> ${wanted})`;
  return undefined;
}

/** Writes `.vercel/project.json` unless it links a real project; returns what it did. */
export function writeProjectLink(root = ROOT): string {
  const settings = JSON.parse(readFileSync(join(root, 'vercel.project.json'), 'utf8')) as { projectId: string };
  const link = join(root, '.vercel', 'project.json');
  if (existsSync(link)) {
    const current = JSON.parse(readFileSync(link, 'utf8')) as { projectId?: string };
    if (current.projectId && current.projectId !== settings.projectId)
      return `keeping ${link} (linked to project ${current.projectId})`;
  }
  mkdirSync(dirname(link), { recursive: true });
  writeFileSync(link, `${JSON.stringify(settings, null, 2)}\n`);
  return `wrote ${link} from vercel.project.json`;
}

/** Runs `vercel build` offline; returns its exit status. */
export function vercelBuild(args: string[] = [], root = ROOT): number {
  console.log(writeProjectLink(root));
  const cli = join(root, 'node_modules', 'vercel', 'dist', 'vc.js');
  if (!existsSync(cli)) {
    console.error('The vercel CLI is not installed (a dev dependency): run npm ci first.');
    return 1;
  }
  const env = {
    ...process.env,
    // Dependencies are installed: `vercel build` must not run an install (no network needed).
    VERCEL_INSTALL_COMPLETED: '1',
    VERCEL_TELEMETRY_DISABLED: '1',
    ASTRO_TELEMETRY_DISABLED: '1',
    NO_UPDATE_NOTIFIER: '1',
    // The build command (server/build-check.ts) and the function builders run on this Node.
    PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
  };
  const started = performance.now();
  const r = spawnSync(process.execPath, [cli, 'build', '--yes', ...args], { cwd: root, env, stdio: 'inherit' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (r.status === 0) {
    for (const gone of dropLocalState(join(root, '.vercel', 'output', 'functions')))
      console.log(`removed local state from the output: ${gone}`);
    console.log(`vercel build: .vercel/output written in ${seconds} s`);
  } else console.error(`vercel build failed after ${seconds} s (exit ${r.status ?? r.signal})`);
  return r.status ?? 1;
}

/**
 * Removes `var/` (the local lead file and outbox: personal data) from every bundle. File tracing follows
 * the local default path into it when it exists in the checkout (it never does on Vercel's builders, but
 * does on a developer's machine before `vercel deploy --prebuilt`); `excludeFiles` cannot reach the
 * middleware bundle.
 */
export function dropLocalState(functionsDir: string): string[] {
  const removed: string[] = [];
  if (!existsSync(functionsDir)) return removed;
  for (const entry of readdirSync(functionsDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name !== 'var') continue;
    const dir = join(entry.parentPath, entry.name);
    if (!entry.parentPath.endsWith('.func')) continue; // only the checkout's var/ at a bundle's root
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir.slice(functionsDir.length + 1));
  }
  return removed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = vercelBuild(process.argv.slice(2));
