/**
 * @module Builds when the build is missing, older than its sources, or made for another SITE_URL or ANALYTICS.
 * `node server/build-check.ts` runs it alone (the test command does); `npm start` runs it before serving.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyticsOf, readEnv, siteUrl } from '../src/config.ts';
import { analyticsOfPage } from '../src/components/analytics-setting.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const SOURCES = ['content', 'src', 'public', 'astro.config.mjs', 'package-lock.json'];

function newest(path: string): number {
  const s = statSync(path, { throwIfNoEntry: false });
  if (!s) return 0;
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), s.mtimeMs);
}

/** Why a build is needed, or undefined when the build is current. */
export function buildReason(root = ROOT): string | undefined {
  const marker = join(root, 'build', 'content.json');
  const built = statSync(marker, { throwIfNoEntry: false });
  if (!built) return 'no build yet';
  if (Math.max(...SOURCES.map((s) => newest(join(root, s)))) > built.mtimeMs)
    return 'sources changed since the last build';
  const origin = (JSON.parse(readFileSync(marker, 'utf8')) as { origin: string }).origin;
  const wanted = siteUrl(process.env);
  if (origin !== wanted) return `SITE_URL changed (${origin} -> ${wanted})`;
  const home = join(root, 'dist', 'index.html');
  if (!existsSync(home)) return 'no pages built yet';
  const pages = analyticsOfPage(readFileSync(home, 'utf8'));
  const analytics = analyticsOf(readEnv(process.env));
  if (pages !== analytics) return `ANALYTICS changed (${pages} -> ${analytics})`;
  return undefined;
}

export function ensureBuild(root = ROOT): void {
  const reason = buildReason(root);
  if (!reason) return;
  console.log(`Building the site (${reason})…`);
  const r = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureBuild();
