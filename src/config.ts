/** @module Build- and run-time settings that are not secrets: the site's public address. */

/** Local default: the local server's own address (README "Configuration"). */
export const DEFAULT_SITE_URL = 'http://localhost:4321';

/** The canonical origin of the site, without a trailing slash. */
export function siteUrl(env: Record<string, string | undefined> = process.env): string {
  const raw = env.SITE_URL || (env.VERCEL_PROJECT_PRODUCTION_URL ? `https://${env.VERCEL_PROJECT_PRODUCTION_URL}` : DEFAULT_SITE_URL);
  return new URL(raw).origin;
}

export const SITE_NAME = 'Kartage';
