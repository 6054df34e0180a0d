/**
 * @module The ANALYTICS setting the pages are built with. astro.config.mjs reads it once (readEnv, analyticsOf)
 * and hands it to the build as `__KARTAGE_ANALYTICS__`; BaseLayout writes it into each page as the
 * `kartage:analytics` meta, which the page's script (track.ts) and the build check (server/build-check.ts) read.
 * Outside the build (the tests) it is off.
 */
import type { AnalyticsProvider } from '../config.ts';

declare const __KARTAGE_ANALYTICS__: AnalyticsProvider | undefined;

/** The meta's name: present, with content `vercel`, only on pages built with analytics. */
export const ANALYTICS_META = 'kartage:analytics';

/** What the build was configured with. */
export const BUILT_ANALYTICS: AnalyticsProvider =
  typeof __KARTAGE_ANALYTICS__ === 'string' ? __KARTAGE_ANALYTICS__ : 'off';

/** The provider a built page names in its meta (`off` when it has none). */
export function analyticsOfPage(html: string): AnalyticsProvider {
  return new RegExp(`<meta name="${ANALYTICS_META}" content="vercel"`).test(html) ? 'vercel' : 'off';
}
