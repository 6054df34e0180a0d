/**
 * When `npm start` rebuilds (server/build-check.ts buildReason), for the ANALYTICS setting: a build made with
 * other analytics than the environment asks for is rebuilt, so a local start never serves pages that load
 * Vercel's scripts unless asked to, and a build on Vercel never ships pages without them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildReason } from '../../server/build-check.ts';
import { siteUrl } from '../../src/config.ts';

const SETTINGS = ['ANALYTICS', 'VERCEL', 'SITE_URL', 'PORT', 'VERCEL_PROJECT_PRODUCTION_URL'] as const;
const saved = Object.fromEntries(SETTINGS.map((k) => [k, process.env[k]]));
let root: string;

/** A checkout whose build is current but for its pages' analytics meta (`undefined`: no pages at all). */
function built(meta: string | undefined): void {
  mkdirSync(join(root, 'build'), { recursive: true });
  writeFileSync(join(root, 'build', 'content.json'), JSON.stringify({ origin: siteUrl(process.env) }));
  if (meta === undefined) return;
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, 'dist', 'index.html'), `<!doctype html><html><head>${meta}<title>Kartage</title>`);
}
const WITH = '<meta name="kartage:analytics" content="vercel">';

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kartage-build-check-'));
  for (const k of SETTINGS) delete process.env[k];
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  for (const k of SETTINGS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

describe('buildReason and ANALYTICS', () => {
  it('keeps a local build without analytics, and rebuilds one made with them', () => {
    built('');
    expect(buildReason(root)).toBeUndefined();
    rmSync(join(root, 'dist'), { recursive: true });
    built(WITH);
    expect(buildReason(root)).toBe('ANALYTICS changed (vercel -> off)');
  });

  it('rebuilds when analytics are asked for, locally or by a build on Vercel', () => {
    built('');
    process.env.ANALYTICS = 'vercel';
    expect(buildReason(root)).toBe('ANALYTICS changed (off -> vercel)');
    delete process.env.ANALYTICS;
    process.env.VERCEL = '1';
    expect(buildReason(root)).toBe('ANALYTICS changed (off -> vercel)');
    rmSync(join(root, 'dist'), { recursive: true });
    built(WITH);
    expect(buildReason(root)).toBeUndefined();
    process.env.ANALYTICS = 'off';
    expect(buildReason(root)).toBe('ANALYTICS changed (vercel -> off)');
  });

  it('builds when the data is there but no page is', () => {
    built(undefined);
    expect(buildReason(root)).toBe('no pages built yet');
  });
});
