/** Astro integration that runs the derive step after `astro build` (set KARTAGE_SKIP_DERIVE=1 to skip). */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { deriveSite } from './derive.ts';
import { DATA_DIR } from '../core/content.ts';

export function derive(): AstroIntegration {
  let root = '';
  let origin = '';
  return {
    name: 'kartage-derive',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
        origin = new URL(config.site!).origin;
      },
      'astro:build:done': async ({ dir, logger }) => {
        if (process.env.KARTAGE_SKIP_DERIVE === '1') return logger.warn('derive step skipped (KARTAGE_SKIP_DERIVE=1)');
        const started = performance.now();
        const cacheDir = join(root, 'node_modules/.cache/kartage-derive');
        const { pages } = await deriveSite({
          distDir: fileURLToPath(dir),
          dataDir: join(root, DATA_DIR),
          origin,
          cacheDir,
        });
        logger.info(
          `derived ${pages.length} pages: twins, JSON, llms.txt, sitemap, OpenAPI, Pagefind (${Math.round(performance.now() - started)} ms)`,
        );
      },
    },
  };
}
