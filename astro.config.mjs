// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { analyticsOf, readEnv, siteOrigin } from './src/config.ts';
import { derive } from './src/build/integration.ts';

// The build's entry point: the environment is read here, once (a malformed setting stops the build).
const env = readEnv(process.env);

// Pages are written as `pricing.html` and served at `/pricing` (Vercel cleanUrls; the local server does
// the same), so each page's markdown twin `pricing.md` and its HTML sit side by side.
export default defineConfig({
  site: siteOrigin(env),
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file' },
  integrations: [
    mdx(),
    derive({ skip: env.KARTAGE_SKIP_DERIVE, workers: env.KARTAGE_DERIVE_WORKERS, timings: env.KARTAGE_DERIVE_TIMINGS }),
  ],
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
  // The pages' analytics (ANALYTICS): BaseLayout writes it into each page (src/components/analytics-setting.ts).
  vite: { define: { __KARTAGE_ANALYTICS__: JSON.stringify(analyticsOf(env)) } },
});
