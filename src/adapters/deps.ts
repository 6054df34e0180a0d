/**
 * @module Composition root: reads the environment once and wires the content, the store, the lead sinks
 * and the logger. Handlers, the middleware and the local server all get their dependencies from here.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type MiniSearch from 'minisearch';
import { CONTENT_FILE, DATA_DIR, SEARCH_FILE, indexContent, type Content, type ContentData, type ContentPage } from '../core/content.ts';
import { loadSearchIndex } from '../core/search.ts';
import { clientOf } from '../core/client.ts';
import { checkRateLimit, READ_POLICY, type RateLimitOutcome } from '../core/rate-limit.ts';
import type { LimitPolicy, Log, Store } from '../core/ports.ts';
import { createMemoryStore } from './memory-store.ts';
import { createUpstashStore } from './upstash-store.ts';
import { errorResponse, readHeaders } from './http.ts';
import { createLog } from './log.ts';

export interface Deps {
  /** The published content, loaded once per instance. */
  content(): Content;
  /** The search index built with the content, loaded once per instance. */
  searchIndex(): MiniSearch<ContentPage>;
  store: Store;
  log: Log;
  /** The clock (tests inject one). */
  now(): number;
  /** Meters one request against `policy` (default: the read budget); `response` is the 429 to send instead. */
  meter(request: Request, policy?: LimitPolicy): Promise<Metered>;
  /** One line describing the engines in use, for the start-up message. */
  describe(): string;
}

export interface Metered {
  headers: Record<string, string>;
  response?: Response;
  outcome: RateLimitOutcome;
}

export interface DepsOptions {
  /** Folder holding `content.json` (default `<cwd>/build`, or KARTAGE_DATA_DIR). */
  dataDir?: string;
  env?: Record<string, string | undefined>;
  store?: Store;
  log?: Log;
  now?: () => number;
}

/** The store the environment asks for: Upstash when its URL and token are set, else the embedded one. */
export function storeFromEnv(env: Record<string, string | undefined>): Store {
  const url = env.UPSTASH_REDIS_REST_URL || env.KV_REST_API_URL;
  const token = env.UPSTASH_REDIS_REST_TOKEN || env.KV_REST_API_TOKEN;
  if (url && token) {
    const timeoutMs = Number(env.KARTAGE_STORE_TIMEOUT_MS) || undefined;
    return createUpstashStore({ url, token, timeoutMs });
  }
  return createMemoryStore({ outboxFile: join(varDir(env), 'outbox.jsonl') });
}

/** Folder for local state (lead file, outbox): KARTAGE_VAR_DIR, else `<cwd>/var` (`/tmp` on Vercel). */
export function varDir(env: Record<string, string | undefined>): string {
  return env.KARTAGE_VAR_DIR || (env.VERCEL ? '/tmp/kartage' : join(process.cwd(), 'var'));
}

export function createDeps(opts: DepsOptions = {}): Deps {
  const env = opts.env ?? process.env;
  const dataDir = opts.dataDir ?? env.KARTAGE_DATA_DIR ?? join(process.cwd(), DATA_DIR);
  const store = opts.store ?? storeFromEnv(env);
  const log = opts.log ?? createLog();
  const now = opts.now ?? (() => Date.now());
  let content: Content | undefined;
  let index: MiniSearch<ContentPage> | undefined;
  return {
    store,
    log,
    now,
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
    async meter(request, policy = READ_POLICY) {
      const outcome = await checkRateLimit({ store, policy, client: clientOf(request), log, now: now() });
      if (outcome.ok) return { headers: outcome.headers, outcome };
      const response = errorResponse(429, outcome.error, { ...readHeaders('none'), ...outcome.headers });
      return { headers: outcome.headers, response, outcome };
    },
    describe: () => `content from ${dataDir}; ${store.describe()}`,
  };
}

// Process-wide dependencies survive warm invocations; the local server and tests scope their own per
// request (two servers in one test process must not share a store).
let cached: Deps | undefined;
const scoped = new AsyncLocalStorage<Deps>();

/** The dependencies for the current request (functions and middleware call this). */
export function deps(): Deps {
  return scoped.getStore() ?? (cached ??= createDeps());
}
/** Runs `fn` with `d` as the dependencies of everything it calls. */
export function withDeps<T>(d: Deps, fn: () => T): T {
  return scoped.run(d, fn);
}
/** Replaces the process-wide dependencies. */
export function setDeps(d: Deps): void {
  cached = d;
}
