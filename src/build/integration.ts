/**
 * Astro integration that runs the derive step after `astro build`. Its settings come from astro.config.mjs,
 * which reads the environment once (KARTAGE_SKIP_DERIVE, KARTAGE_DERIVE_WORKERS, KARTAGE_DERIVE_TIMINGS).
 * It also gives Astro's markdown the endpoint tables generated from the operations (src/build/endpoints.ts).
 */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { deriveSite } from './derive.ts';
import { type EarlyDerive, startEarlyDerive } from './derive-early.ts';
import { defaultWorkers } from './derive-pages.ts';
import { endpointTablePlugin } from './endpoints.ts';
import { DATA_DIR } from '../config.ts';

export interface DeriveSettings {
  /** Skip the step (the Astro build alone, for debugging it). */
  skip: boolean;
  /** Worker threads for the pages; default one per core. */
  workers?: number;
  /** Log each phase's time to stderr. */
  timings: boolean;
}

export function derive(settings: DeriveSettings): AstroIntegration {
  let origin = '';
  let outDir = '';
  let cacheDir = '';
  let dataDir = '';
  let early: EarlyDerive | undefined;
  return {
    name: 'kartage-derive',
    hooks: {
      'astro:config:setup': ({ config }) => {
        // The Sätteri processor's options are read when its renderer is made, after this hook.
        const processor = config.markdown.processor;
        if (processor.name !== 'satteri') {
          throw new Error(`the endpoint tables need the Sätteri markdown processor, not ${processor.name}`);
        }
        const plugins = (processor.options as { mdastPlugins: { name?: string }[] }).mdastPlugins;
        const plugin = endpointTablePlugin();
        const at = plugins.findIndex((p) => p.name === plugin.name);
        if (at >= 0) plugins[at] = plugin;
        else plugins.push(plugin);
      },
      'astro:config:done': ({ config }) => {
        origin = new URL(config.site!).origin;
        outDir = fileURLToPath(config.outDir);
        // The pages derived by content hash, in Astro's cache folder (node_modules/.astro unless set).
        cacheDir = join(fileURLToPath(config.cacheDir), 'kartage-derive');
        dataDir = join(fileURLToPath(config.root), DATA_DIR);
      },
      'astro:build:start': () => {
        // The pages are derived as Astro writes them, on a core its render leaves idle (derive-early.ts).
        if (!settings.skip && (settings.workers ?? defaultWorkers()) > 1) early = startEarlyDerive(outDir, cacheDir);
      },
      'astro:build:done': async ({ dir, logger }) => {
        if (settings.skip) return logger.warn('derive step skipped (KARTAGE_SKIP_DERIVE=1)');
        const started = performance.now();
        const before = (await early?.stop()) ?? 0;
        const { pages } = await deriveSite({
          distDir: fileURLToPath(dir),
          dataDir,
          origin,
          cacheDir,
          workers: settings.workers,
          timings: settings.timings,
        });
        logger.info(
          `derived ${pages.length} pages: twins, JSON, llms.txt, sitemap, OpenAPI, Pagefind ` +
            `(${Math.round(performance.now() - started)} ms; HTML files read while Astro wrote them: ${before})`,
        );
      },
    },
  };
}
