// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { siteUrl } from './src/config.ts';
import { derive } from './src/build/integration.ts';

// Pages are written as `pricing.html` and served at `/pricing` (Vercel cleanUrls; the local server does
// the same), so each page's markdown twin `pricing.md` and its HTML sit side by side.
export default defineConfig({
  site: siteUrl(),
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file' },
  integrations: [mdx(), derive()],
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
});
