/**
 * @module Composition root: reads the environment once and wires the content, the store, the lead sinks
 * and the logger. Handlers, the middleware and the local server all get their dependencies from here.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchIndex } from '../core/search.ts';
import { CONTENT_FILE, DATA_DIR, SEARCH_FILE, indexContent, type Content, type ContentData, type ContentPage } from '../core/content.ts';
import { loadSearchIndex } from '../core/search.ts';
import { clientOf } from '../core/client.ts';
import { checkRateLimit, READ_POLICY, type RateLimitOutcome } from '../core/rate-limit.ts';
import type { LeadSink, LimitPolicy, Log, Notifier, Store } from '../core/ports.ts';
import { siteUrl } from '../config.ts';
import { PricingSchema, type Pricing } from '../contract/content.ts';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };
import { createHubSpotSink } from './hubspot-sink.ts';
import { createWebhookSink } from './webhook-sink.ts';
import { createLogNotifier, createSlackNotifier } from './notifiers.ts';
import { createFallbackStore } from './fallback-store.ts';
import { createSqliteSink, createSqliteStore, DB_FILE } from './sqlite-store.ts';
import { createUpstashStore } from './upstash-store.ts';
import { errorResponse, readHeaders } from './http.ts';
import { createLog } from './log.ts';

export interface Deps {
  /** The published content, loaded once per instance. */
  content(): Content;
  /** The search index built with the content, loaded once per instance. */
  searchIndex(): SearchIndex;
  /** The pricing data (content/data/pricing.json), checked against its schema once. */
  pricing(): Pricing;
  store: Store;
  /** Where leads are recorded (the CRM, a webhook, or the local file). */
  sink: LeadSink;
  /** Tells sales about a new lead. */
  notifier: Notifier;
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
  sink?: LeadSink;
  notifier?: Notifier;
  log?: Log;
  now?: () => number;
}

/**
 * The store the environment asks for: Upstash when its URL and token are set, else the embedded SQLite
 * file `<KARTAGE_VAR_DIR>/kartage.db`. `createDeps` wraps it in the per-instance fallback.
 */
export function storeFromEnv(env: Record<string, string | undefined>): Store {
  const url = env.UPSTASH_REDIS_REST_URL || env.KV_REST_API_URL;
  const token = env.UPSTASH_REDIS_REST_TOKEN || env.KV_REST_API_TOKEN;
  if (url && token) {
    const timeoutMs = Number(env.KARTAGE_STORE_TIMEOUT_MS) || undefined;
    const leadTimeoutMs = Number(env.KARTAGE_LEAD_STORE_TIMEOUT_MS) || undefined;
    return createUpstashStore({ url, token, timeoutMs, leadTimeoutMs });
  }
  return createSqliteStore({ file: dbFile(env) });
}

/** The embedded store's SQLite file. */
export function dbFile(env: Record<string, string | undefined>): string {
  return join(varDir(env), DB_FILE);
}

/**
 * The lead sink the environment asks for: LEAD_SINK (`hubspot`, `webhook`, `file`), or else the first
 * whose settings are present, in that order; the local file is the default.
 */
export function sinkFromEnv(env: Record<string, string | undefined>): LeadSink {
  const hubspot = env.HUBSPOT_ACCESS_TOKEN && env.HUBSPOT_PORTAL_ID && env.HUBSPOT_FORM_ID;
  const webhook = env.LEAD_WEBHOOK_URL && env.LEAD_WEBHOOK_SECRET;
  const kind = env.LEAD_SINK || (hubspot ? 'hubspot' : webhook ? 'webhook' : 'file');
  const timeoutMs = Number(env.LEAD_SINK_TIMEOUT_MS) || undefined;
  if (kind === 'hubspot') {
    if (!hubspot) throw new Error('LEAD_SINK=hubspot needs HUBSPOT_ACCESS_TOKEN, HUBSPOT_PORTAL_ID and HUBSPOT_FORM_ID');
    return createHubSpotSink({ token: env.HUBSPOT_ACCESS_TOKEN!, portalId: env.HUBSPOT_PORTAL_ID!, formId: env.HUBSPOT_FORM_ID!, baseUrl: env.HUBSPOT_API_BASE || undefined, timeoutMs });
  }
  if (kind === 'webhook') {
    if (!webhook) throw new Error('LEAD_SINK=webhook needs LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET');
    return createWebhookSink({ url: env.LEAD_WEBHOOK_URL!, secret: env.LEAD_WEBHOOK_SECRET!, timeoutMs });
  }
  if (kind === 'file') return createSqliteSink(dbFile(env));
  throw new Error(`LEAD_SINK must be hubspot, webhook or file, not "${kind}"`);
}

/** Sales notification: a Slack-compatible webhook when SALES_WEBHOOK_URL is set, else a log line. */
export function notifierFromEnv(env: Record<string, string | undefined>, log: Log): Notifier {
  return env.SALES_WEBHOOK_URL ? createSlackNotifier({ url: env.SALES_WEBHOOK_URL, origin: siteUrl(env) }) : createLogNotifier(log);
}

/** Folder for local state (lead file, outbox): KARTAGE_VAR_DIR, else `<cwd>/var` (`/tmp` on Vercel). */
export function varDir(env: Record<string, string | undefined>): string {
  return env.KARTAGE_VAR_DIR || (env.VERCEL ? '/tmp/kartage' : join(process.cwd(), 'var'));
}

export function createDeps(opts: DepsOptions = {}): Deps {
  const env = opts.env ?? process.env;
  const dataDir = opts.dataDir ?? env.KARTAGE_DATA_DIR ?? join(process.cwd(), DATA_DIR);
  const log = opts.log ?? createLog();
  // Never unlimited: a failing shared store falls back to this instance's own limits for that request.
  const given = opts.store ?? storeFromEnv(env);
  const store = 'fallbacks' in given ? given : createFallbackStore(given, log);
  // Built on first use: a lead-sink misconfiguration then fails lead submission (logged, 500 Error body),
  // not every read.
  let sink = opts.sink;
  let notifier = opts.notifier;
  const leadSink = () => (sink ??= sinkFromEnv(env));
  const now = opts.now ?? (() => Date.now());
  let content: Content | undefined;
  let index: SearchIndex | undefined;
  let pricing: Pricing | undefined;
  return {
    pricing: () => (pricing ??= PricingSchema.parse(pricingData)),
    store,
    get sink() {
      return leadSink();
    },
    get notifier() {
      return (notifier ??= notifierFromEnv(env, log));
    },
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
    describe: () => `content from ${dataDir}; ${store.describe()}; leads to ${leadSink().name}; sales notified by ${(notifier ??= notifierFromEnv(env, log)).name}`,
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
