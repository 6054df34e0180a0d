/**
 * @module Composition root: builds the content source, the store, the lead sinks and the logger from a
 * `Config` (src/adapters/config.ts). Each entry point builds its dependencies once and passes them on
 * (`processDeps` for the Vercel functions and the middleware; the local server and tests call
 * `createDeps` with their own); nothing looks them up from a global.
 */
import { existsSync, readFileSync } from 'node:fs';
import { waitUntil } from '@vercel/functions';
import { join } from 'node:path';
import { CONTENT_FILE, SEARCH_FILE, type ContentData } from '../core/content.ts';
import { contentFromData, type ContentSource } from '../core/content-source.ts';
import { loadSearchIndex } from '../core/search.ts';
import { checkRateLimit, READ_POLICY, type RateLimitOutcome } from '../core/rate-limit.ts';
import { createUnansweredRecorder } from '../core/ask/unanswered.ts';
import type { LeadSink, LimitPolicy, Log, Notifier, Store } from '../core/ports.ts';
import { PricingSchema, type Pricing } from '../contract/content.ts';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };
import { parseConfig, type Config, type SinkConfig, type StoreConfig } from './config.ts';
import { createHubSpotSink } from './hubspot-sink.ts';
import { createWebhookSink } from './webhook-sink.ts';
import { createLogNotifier, createSlackNotifier } from './notifiers.ts';
import { createFallbackStore } from './fallback-store.ts';
import { createMemoryStore } from './memory-store.ts';
import { createSqliteSink, createSqliteStore } from './sqlite-store.ts';
import { createUpstashStore } from './upstash-store.ts';
import { createLog } from './log.ts';
import { createContentFiles, META_FILE } from './content-files.ts';

export interface Deps {
  config: Config;
  /** The published content, loaded part by part as operations ask for it. */
  content(): ContentSource;
  /** The pricing data (content/data/pricing.json), checked against its schema once. */
  pricing(): Pricing;
  store: Store;
  /** Where leads are recorded (the CRM, a webhook, or the local file). */
  readonly sink: LeadSink;
  /** Tells sales about a new lead. */
  readonly notifier: Notifier;
  log: Log;
  /** The clock (tests inject one). */
  now(): number;
  /** Lets `work` finish after the answer is sent (Vercel's `waitUntil`; locally the process stays up). */
  defer(work: Promise<unknown>): void;
  /** Spends one unit of `client`'s budget under `policy` (default: the read budget). */
  meter(client: string, policy?: LimitPolicy): Promise<RateLimitOutcome>;
  /**
   * Counts a question the assistant could not answer, for the content team (`npm run ask:report`): scrubbed
   * of emails, phone numbers, links with a query and long numbers first; nothing else about the visitor is
   * kept. Returns at once and never throws: the store write runs under `defer`, cut off after 300 ms,
   * failures logged (src/core/ask/unanswered.ts).
   */
  recordUnanswered(question: string): void;
  /** One line describing the engines in use, for the start-up message. */
  describe(): string;
}

export interface DepsOptions {
  /** The settings; default: `parseConfig(env)`. */
  config?: Config;
  /** The environment `config` is parsed from when not given (default `process.env`). */
  env?: Record<string, string | undefined>;
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
}

/** The store a config asks for: Upstash, or the embedded SQLite file. */
export function createStore(c: StoreConfig): Store {
  if (c.kind === 'upstash') return createUpstashStore(c);
  return createSqliteStore({ file: c.file });
}

/** The lead sink a config asks for; a misconfigured one throws when a lead is submitted. */
export function createSink(c: SinkConfig): LeadSink {
  if (c.kind === 'hubspot') return createHubSpotSink(c);
  if (c.kind === 'webhook') return createWebhookSink(c);
  if (c.kind === 'file') return createSqliteSink(c.file);
  throw new Error(c.error);
}

/**
 * The content of a build folder: its split data files (each read only when an operation asks for its
 * part), or, for a folder that holds only `content.json` (a test's hand-made site), that file whole.
 */
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

export function createDeps(opts: DepsOptions = {}): Deps {
  const config = opts.config ?? parseConfig(opts.env ?? process.env);
  const dataDir = opts.dataDir ?? config.dataDir;
  const log = opts.log ?? createLog();
  // Never unlimited: a failing shared store falls back to this instance's own limits for that request.
  const given = opts.store ?? createStore(config.store);
  const clock = opts.now ?? (() => Date.now());
  // The instance's own store runs on the same clock as the rest (a test's injected clock included).
  const store = 'fallbacks' in given ? given : createFallbackStore(given, log, createMemoryStore({ now: clock }));
  // Built on first use: a lead-sink misconfiguration then fails lead submission, not every read.
  let sink = opts.sink;
  let notifier = opts.notifier;
  let content = opts.content;
  let pricing: Pricing | undefined;
  const now = clock;
  const defer = opts.defer ?? ((work: Promise<unknown>) => waitUntil(work));
  const leadSink = () => (sink ??= createSink(config.sink));
  const salesNotifier = () =>
    (notifier ??= config.salesWebhookUrl
      ? createSlackNotifier({ url: config.salesWebhookUrl, origin: config.origin })
      : createLogNotifier(log));
  return {
    config,
    content: () => (content ??= loadContent(dataDir)),
    pricing: () => (pricing ??= PricingSchema.parse(pricingData)),
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

let processWide: Deps | undefined;

/**
 * The dependencies of a platform entry point (a Vercel function, the middleware): built from
 * `process.env` on first use and kept for the instance's warm invocations.
 */
export function processDeps(): Deps {
  return (processWide ??= createDeps());
}
