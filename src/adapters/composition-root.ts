/**
 * @module Composition root: builds the content source, the store, the lead sinks and the logger from a
 * `Config` (src/config.ts). Each entry point reads its configuration once and builds its
 * dependencies once (src/http/vercel.ts for the Vercel functions, middleware.ts, server/main.ts; the scripts,
 * tests and benchmarks call `createDeps` with a `config` or an `env` of their own); nothing here reads
 * `process.env` and nothing looks them up from a global.
 *
 * `Deps` has one kind of member: a read-only value, read as `deps.x`. What is data (the content, the pricing,
 * the lead sink, the sales notifier) is the value itself, and one that costs a file read or may fail on a
 * misconfiguration is made on its first read behind a getter, a detail its readers never see; what is
 * behaviour (the log, the clock, `meter`, `defer`, ...) is a function value, called as any function is. This
 * is the shape the domain's own ports already take (`LeadDeps`, `SearchDeps`, `McpDeps` want `content`,
 * `store`, `sink` as values and `now` as a function), so a `Deps` is passed to them as it is; making every
 * member a function instead would have turned `deps.log(...)` into `deps.log()(...)`. A getter runs when an
 * object is spread, so derive a changed `Deps` with `Object.create(deps, ...)`, never `{ ...deps }`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { waitUntil } from '@vercel/functions';
import { join } from 'node:path';
import { CONTENT_FILE, SEARCH_FILE, type ContentData } from '../core/content.ts';
import { contentFromData, type ContentSource } from '../core/content-source.ts';
import { loadSearchIndex } from '../core/search/engine.ts';
import { checkRateLimit, READ_POLICY, type RateLimitOutcome } from '../core/rate-limit.ts';
import { createUnansweredRecorder } from '../core/unanswered/index.ts';
import type { LeadSink, LimitPolicy, Log, Notifier, Store } from '../core/ports.ts';
import { PricingSchema, type Pricing } from '../contract/content.ts';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };
import { parseConfig, type Config, type SinkConfig, type StoreConfig } from '../config.ts';
import { createHubSpotSink } from './hubspot-sink.ts';
import { createWebhookSink } from './webhook-sink.ts';
import { createLogNotifier, createSlackNotifier } from './notifiers.ts';
import { createFallbackStore } from './fallback-store.ts';
import { createMemoryStore } from './memory-store/index.ts';
import { createSqliteSink, createSqliteStore } from './sqlite-store/index.ts';
import { createUpstashStore } from './upstash-store/index.ts';
import { createLog } from './log.ts';
import { createContentFiles, META_FILE } from './content-files.ts';

/** Every dependency an operation may read: values, and functions for behaviour. */
export interface Deps {
  readonly config: Config;
  /** The published content, each part loaded as operations first ask for it. */
  readonly content: ContentSource;
  /** The pricing data (content/data/pricing.json), checked against its schema on first read. */
  readonly pricing: Pricing;
  readonly store: Store;
  /** Where leads are recorded (the CRM, a webhook, or the local file). */
  readonly sink: LeadSink;
  /** Tells sales about a new lead. */
  readonly notifier: Notifier;
  readonly log: Log;
  /** The clock (tests inject one). */
  readonly now: () => number;
  /** Lets `work` finish after the answer is sent (Vercel's `waitUntil`; locally the process stays up). */
  readonly defer: (work: Promise<unknown>) => void;
  /** Spends one unit of `client`'s budget under `policy` (default: the read budget). */
  readonly meter: (client: string, policy?: LimitPolicy) => Promise<RateLimitOutcome>;
  /**
   * Counts a question the assistant could not answer, for the content team (`npm run ask:report`): scrubbed
   * of emails, phone numbers, links with a query and long numbers first; nothing else about the visitor is
   * kept. Counted once per `client` and day (the store gets a daily hash of the client, never its address).
   * Returns at once and never throws: the store write runs under `defer`, cut off after 300 ms, failures logged
   * (src/core/unanswered/index.ts).
   */
  readonly recordUnanswered: (question: string, client?: string) => void;
  /** One line describing the engines in use, for the start-up message. */
  readonly describe: () => string;
}

/** What `createDeps` builds from: a parsed `Config` or an `env` to parse, and any part given ready-made. */
export type DepsOptions = (
  | { config: Config; env?: never }
  | { env: Record<string, string | undefined>; config?: never }
) & {
  /** Folder holding the build's data files (overrides the config's). */
  dataDir?: string;
  /** The content itself (tests); default: the build's data files in `dataDir`. */
  content?: ContentSource;
  store?: Store;
  sink?: LeadSink;
  notifier?: Notifier;
  log?: Log;
  now?: () => number;
  defer?: (work: Promise<unknown>) => void;
};

/** The store a config asks for; `defer` keeps Upstash's read-budget analytics write alive after the answer. */
export function createStore(c: StoreConfig, defer?: (work: Promise<unknown>) => void): Store {
  if (c.kind === 'upstash') return createUpstashStore({ ...c, ...(defer ? { defer } : {}) });
  return createSqliteStore({ file: c.file });
}

/** The lead sink a config asks for; a misconfigured one throws when a lead is submitted. */
export function createSink(c: SinkConfig): LeadSink {
  if (c.kind === 'hubspot') return createHubSpotSink(c);
  if (c.kind === 'webhook') return createWebhookSink(c);
  if (c.kind === 'file') return createSqliteSink(c.file);
  throw new Error(c.error);
}

/** The content of a build folder: its split data files, or a test site's lone `content.json`, whole. */
export function loadContent(dataDir: string): ContentSource {
  if (existsSync(join(dataDir, META_FILE))) return createContentFiles(dataDir);
  const file = join(dataDir, CONTENT_FILE);
  let data: ContentData;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as ContentData;
  } catch (e) {
    throw new Error(`cannot read ${file}: run the build first (npm run build)`, { cause: e });
  }
  return contentFromData(data, () => loadSearchIndex(readFileSync(join(dataDir, SEARCH_FILE), 'utf8')));
}

/** Builds the dependencies once per entry point; parts that cost a read or may fail are made on first use. */
export function createDeps(opts: DepsOptions): Deps {
  const config = opts.config !== undefined ? opts.config : parseConfig(opts.env);
  const dataDir = opts.dataDir ?? config.dataDir;
  const log = opts.log ?? createLog();
  const defer = opts.defer ?? ((work: Promise<unknown>) => waitUntil(work));
  // Never unlimited: a failing shared store falls back to this instance's own limits for that request.
  const given = opts.store ?? createStore(config.store, defer);
  const now = opts.now ?? (() => Date.now());
  // The instance's own store runs on the same clock as the rest (a test's injected clock included).
  const store = 'fallbacks' in given ? given : createFallbackStore(given, log, createMemoryStore({ now }));
  // Made on first read: a lead-sink misconfiguration then fails lead submission, not every read, and a
  // function that never reads the content or the pricing never loads them.
  let sink = opts.sink;
  let notifier = opts.notifier;
  let content = opts.content;
  let pricing: Pricing | undefined;
  const leadSink = () => (sink ??= createSink(config.sink));
  const salesNotifier = () =>
    (notifier ??= config.salesWebhookUrl
      ? createSlackNotifier({ url: config.salesWebhookUrl, origin: config.origin })
      : createLogNotifier(log));
  return {
    config,
    get content() {
      return (content ??= loadContent(dataDir));
    },
    get pricing() {
      return (pricing ??= PricingSchema.parse(pricingData));
    },
    store,
    get sink() {
      return leadSink();
    },
    get notifier() {
      return salesNotifier();
    },
    log,
    now,
    defer,
    meter: (client, policy = READ_POLICY) => checkRateLimit({ store, policy, client, log, now: now() }),
    recordUnanswered: createUnansweredRecorder({ store, log, now, defer }),
    describe: () =>
      `content from ${dataDir}; ${store.describe()}; leads to ${leadSink().name}; ` +
      `sales notified by ${salesNotifier().name}`,
  };
}
