/**
 * @module Vercel Web Analytics and Speed Insights, loaded by track.ts once the page has settled: each package's
 * `inject` adds its script from the site's own `/_vercel/` path (named here, so no build mode can pick Vercel's
 * debug script from another host). Every page view, event and vital leaves without the page address's query and
 * fragment: the search page keeps the visitor's query there.
 */
import { inject, track } from '@vercel/analytics';
import { injectSpeedInsights } from '@vercel/speed-insights';

/** The script paths Vercel serves once Web Analytics and Speed Insights are on in the project. */
export const SCRIPTS = { analytics: '/_vercel/insights/script.js', speedInsights: '/_vercel/speed-insights/script.js' };

/** An address without its query and fragment. */
export function withoutQuery(url: string): string {
  return url.replace(/[?#][\s\S]*$/, '');
}

/** Injects both scripts; returns how to send an event (track.ts has checked its properties). */
export function startVercel(): (name: string, props: Record<string, string | number | boolean>) => void {
  inject({
    mode: 'production',
    scriptSrc: SCRIPTS.analytics,
    beforeSend: (event) => ({ ...event, url: withoutQuery(event.url) }),
  });
  injectSpeedInsights({
    scriptSrc: SCRIPTS.speedInsights,
    beforeSend: (event) => ({ ...event, url: withoutQuery(event.url) }),
  });
  return (name, props) => track(name, props);
}
