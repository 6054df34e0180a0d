/**
 * @module Composition root: reads the environment once and wires the content, the store and the sinks.
 * Handlers, the middleware and the local server all get their dependencies from here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type MiniSearch from 'minisearch';
import { CONTENT_FILE, DATA_DIR, SEARCH_FILE, indexContent, type Content, type ContentData, type ContentPage } from '../core/content.ts';
import { loadSearchIndex } from '../core/search.ts';

export interface Deps {
  /** The published content, loaded once per instance. */
  content(): Content;
  /** The search index built with the content, loaded once per instance. */
  searchIndex(): MiniSearch<ContentPage>;
  /** Meters one read; `response` is a 429 to send instead. Absent until rate limiting is wired. */
  meterRead?: (request: Request) => Promise<{ headers: Record<string, string>; response?: Response }>;
  /** One line describing the engines in use, for the start-up message. */
  describe(): string;
}

export interface DepsOptions {
  /** Folder holding `content.json` (default `<cwd>/build`, or KARTAGE_DATA_DIR). */
  dataDir?: string;
  env?: Record<string, string | undefined>;
}

export function createDeps(opts: DepsOptions = {}): Deps {
  const env = opts.env ?? process.env;
  const dataDir = opts.dataDir ?? env.KARTAGE_DATA_DIR ?? join(process.cwd(), DATA_DIR);
  let content: Content | undefined;
  let index: MiniSearch<ContentPage> | undefined;
  return {
    searchIndex() {
      return (index ??= loadSearchIndex(readFileSync(join(dataDir, SEARCH_FILE), 'utf8')));
    },
    content() {
      if (!content) {
        const file = join(dataDir, CONTENT_FILE);
        let data: ContentData;
        try {
          data = JSON.parse(readFileSync(file, 'utf8')) as ContentData;
        } catch (e) {
          throw new Error(`cannot read ${file}: run the build first (npm run build)`, { cause: e });
        }
        content = indexContent(data);
      }
      return content;
    },
    describe: () => `content from ${dataDir}`,
  };
}

let cached: Deps | undefined; // survives warm invocations
/** The process-wide dependencies (functions and middleware call this). */
export function deps(): Deps {
  return (cached ??= createDeps());
}
/** Replaces the process-wide dependencies (the local server and tests). */
export function setDeps(d: Deps): void {
  cached = d;
}
