/** @module Build- and run-time settings that are not secrets: the site's public address. */

/** Local default: the local server's own address (README "Configuration"); `PORT` alone moves it. */
export const DEFAULT_SITE_URL = 'http://localhost:4321';

/** The canonical origin of the site, without a trailing slash. */
export function siteUrl(env: Record<string, string | undefined> = process.env): string {
  const vercel = env.VERCEL_PROJECT_PRODUCTION_URL;
  const raw = env.SITE_URL || (vercel ? `https://${vercel}` : localSiteUrl(env));
  return new URL(raw).origin;
}

/** The local server's address: http://localhost:<PORT>, or the default when PORT is unset. */
function localSiteUrl(env: Record<string, string | undefined>): string {
  const port = Number(env.PORT);
  return Number.isInteger(port) && port > 0 && port < 65536 ? `http://localhost:${port}` : DEFAULT_SITE_URL;
}

export const SITE_NAME = 'Kartage';
