/**
 * @module The configuration: every environment variable the service and its build take, in one zod schema
 * (`EnvSchema`), each with its default as docs/configuration.md writes it (tests/config.test.ts keeps that
 * table and this schema equal), and the typed `Config` the adapters are built from. `readEnv(env)` is the only
 * code that reads the environment; an entry point calls it once and passes the typed result on: the local
 * server, the Vercel functions, the middleware and the scripts through `parseConfig`, astro.config.mjs for the
 * site's origin and the derive step's settings. A malformed value (a number with a typo, an unknown choice, a
 * URL that is none) stops start-up with a message naming the variable and what it expects; an unset or empty
 * one means its default.
 *
 * Not configuration: the variables only the tests and the benchmarks read (E2E_PORT, FUZZ_SEED, FUZZ_RUNS,
 * BENCH_*, LH_*, CHROMIUM_PATH) tune a test run, not the service. Those scripts read them themselves; they are
 * not in this schema nor in the docs' table.
 */
import { join } from 'node:path';
import { z } from 'zod';

/** Local default: the local server's own address (docs/configuration.md); `PORT` alone moves it. */
export const DEFAULT_SITE_URL = 'http://localhost:4321';

/** Folder (relative to the project root) the build writes the functions' data files to. */
export const DATA_DIR = 'build';

/** The embedded database's file name inside KARTAGE_VAR_DIR. */
export const DB_FILE = 'kartage.db';

/**
 * Each variable's default as docs/configuration.md writes it ("unset" when it has none), and for some, what it
 * does (`meaning`), for the documentation generated from this schema.
 */
const documented = z.registry<{ default: string; meaning?: string }>();

/** `schema` with what its variable does, for the generated documentation. */
function meaning<T extends z.ZodType>(schema: T, text: string): T {
  documented.add(schema, { default: documented.get(schema)?.default ?? 'unset', meaning: text });
  return schema;
}

/** A parsed value, or what a malformed one should have been ("a whole number of milliseconds"). */
type Parsed<T> = { value: T } | { expected: string };

/**
 * A variable: unset or empty means `fallback` (documented as `doc`, by default the fallback itself or
 * "unset"); any other value goes through `parse`, and a malformed one is an issue naming what it expects.
 */
function variable<T, F>(fallback: F, parse: (v: string) => Parsed<T>, doc?: string) {
  const schema = z
    .string()
    .optional()
    .transform((raw, ctx): T | F => {
      if (raw === undefined || raw.trim() === '') return fallback;
      const parsed = parse(raw);
      if ('value' in parsed) return parsed.value;
      ctx.addIssue({ code: 'custom', message: `must be ${parsed.expected}, got ${JSON.stringify(raw)}` });
      return z.NEVER;
    });
  const shown = doc ?? (fallback === undefined || fallback === false ? 'unset' : `\`${fallback}\``);
  return schema.register(documented, { default: shown });
}

/** Free text (a token, a secret, a path, a host name), taken as written. */
const text = (doc?: string) => variable(undefined, (v) => ({ value: v }), doc);

/** A whole number from `min` to `max`, or `expected`. */
function whole(v: string, min: number, max: number, expected: string): Parsed<number> {
  const t = v.trim();
  return /^\d+$/.test(t) && Number(t) >= min && Number(t) <= max ? { value: Number(t) } : { expected };
}

/** A timeout: a whole number of milliseconds, 1 or more (a 0 used to mean the default unsaid; now it is refused). */
const millis = (fallback: number) =>
  variable(fallback, (v) => {
    const n = whole(v, 0, Number.MAX_SAFE_INTEGER, 'a whole number of milliseconds');
    return 'value' in n && n.value === 0 ? { expected: 'at least 1 millisecond' } : n;
  });

/** `1` on, `0` off: anything else is a typo, not "off". */
const flag = () =>
  variable<boolean, boolean>(false, (v) => {
    const t = v.trim();
    return t === '1' || t === '0' ? { value: t === '1' } : { expected: '1 (on) or 0 (off)' };
  });

/** An absolute http(s) URL. */
const url = (fallback?: string, doc?: string) =>
  variable(
    fallback,
    (v) =>
      URL.canParse(v.trim()) && /^https?:$/.test(new URL(v.trim()).protocol)
        ? { value: v.trim() }
        : { expected: 'an absolute http(s) URL' },
    doc,
  );

/** Comma-separated host names, lower-cased, blanks dropped. */
const hosts = () =>
  variable<string[], string[]>(
    [],
    (v) => ({
      value: v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    }),
    'unset',
  );

/** One of `choices` (`expected` names them); unset, inferred from other settings by whoever reads it. */
const choice = <T extends string>(choices: readonly T[], expected: string) =>
  variable(
    undefined,
    (v) => {
      const kind = choices.find((k) => k === v.trim());
      return kind ? { value: kind } : { expected };
    },
    'inferred',
  );

/** Set by Vercel on its platform; never set by hand. */
const platform = () => text('set by Vercel');

const LEAD_SINKS = ['hubspot', 'webhook', 'file'] as const;
const ANALYTICS_PROVIDERS = ['vercel', 'off'] as const;
/** Where the site's pages send their visit and funnel figures: Vercel Web Analytics and Speed Insights, or nowhere. */
export type AnalyticsProvider = (typeof ANALYTICS_PROVIDERS)[number];

/** Every environment variable the service and its build take, with its parsing and default. */
export const EnvSchema = z.object({
  // The local server.
  HOST: variable('127.0.0.1', (v) => ({ value: v })),
  PORT: variable(4321, (v) => whole(v, 0, 65535, 'a port number from 0 to 65535')),
  SITE_URL: url(undefined, '`http://localhost:$PORT` (`4321`)'),
  TRUST_PROXY: flag(),
  KARTAGE_DATA_DIR: text('`<cwd>/build`'),
  KARTAGE_VAR_DIR: text('`<cwd>/var` (`/tmp/kartage` on Vercel)'),
  // The shared store.
  UPSTASH_REDIS_REST_URL: url(),
  UPSTASH_REDIS_REST_TOKEN: text(),
  KV_REST_API_URL: url(),
  KV_REST_API_TOKEN: text(),
  KARTAGE_STORE_TIMEOUT_MS: millis(300),
  KARTAGE_LEAD_STORE_TIMEOUT_MS: millis(1500),
  KARTAGE_RATELIMIT_ANALYTICS: meaning(
    flag(),
    "`1` turns on `@upstash/ratelimit`'s analytics for the read budget (with Upstash): allowed and refused reads " +
      'per client in the Upstash console, at one more Redis command per read. Unset or `0`: off.',
  ),
  // Leads.
  LEAD_SINK: choice(LEAD_SINKS, 'hubspot, webhook or file'),
  HUBSPOT_ACCESS_TOKEN: text(),
  HUBSPOT_PORTAL_ID: text(),
  HUBSPOT_FORM_ID: text(),
  HUBSPOT_API_BASE: url('https://api.hsforms.com'),
  LEAD_WEBHOOK_URL: url(),
  LEAD_WEBHOOK_SECRET: text(),
  LEAD_SINK_TIMEOUT_MS: millis(5000),
  SALES_WEBHOOK_URL: url(),
  CRON_SECRET: text(),
  // MCP.
  MCP_ALLOWED_HOSTS: hosts(),
  // Set by the platform.
  VERCEL: platform(),
  VERCEL_URL: platform(),
  VERCEL_BRANCH_URL: platform(),
  VERCEL_PROJECT_PRODUCTION_URL: platform(),
  // The build's derive step.
  KARTAGE_SKIP_DERIVE: flag(),
  KARTAGE_DERIVE_WORKERS: variable(
    undefined,
    (v) => whole(v, 1, Number.MAX_SAFE_INTEGER, 'a whole number of worker threads, 1 or more'),
    'one per core',
  ),
  KARTAGE_DERIVE_TIMINGS: flag(),
  // The pages' analytics (a build setting).
  ANALYTICS: choice(ANALYTICS_PROVIDERS, 'vercel or off'),
});
/** The checked environment. */
export type Env = z.output<typeof EnvSchema>;

/** Every variable of the schema with its default as docs/configuration.md writes it. */
export function documentedDefaults(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(EnvSchema.shape).map(([name, schema]) => [name, documented.get(schema)?.default ?? '']),
  );
}

/** What the variables that say so do (`meaning`), by name, for the generated documentation. */
export function documentedMeanings(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(EnvSchema.shape).flatMap(([name, schema]) => {
      const text = documented.get(schema)?.meaning;
      return text ? [[name, text]] : [];
    }),
  );
}

/** One or more malformed variables, each on its own line. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration (docs/configuration.md):\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Reads the environment once: every variable checked, defaults applied; throws a `ConfigError`. */
export function readEnv(raw: Record<string, string | undefined>): Env {
  const parsed = EnvSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`));
}

/** The site's canonical origin: SITE_URL, else Vercel's production host, else the local server's address. */
export function siteOrigin(env: Env): string {
  if (env.SITE_URL) return new URL(env.SITE_URL).origin;
  if (env.VERCEL_PROJECT_PRODUCTION_URL) return new URL(`https://${env.VERCEL_PROJECT_PRODUCTION_URL}`).origin;
  return env.PORT > 0 ? `http://localhost:${env.PORT}` : DEFAULT_SITE_URL;
}

/** The analytics the pages are built with: ANALYTICS, else Vercel's on Vercel, else none (a local build). */
export function analyticsOf(env: Env): AnalyticsProvider {
  return env.ANALYTICS ?? (env.VERCEL ? 'vercel' : 'off');
}

/** `siteOrigin` of a raw environment, for the scripts that need the origin alone. */
export function siteUrl(raw: Record<string, string | undefined>): string {
  return siteOrigin(readEnv(raw));
}

/** Which store to use: Upstash (shared), or the embedded SQLite file. */
export type StoreConfig =
  | {
      kind: 'upstash';
      url: string;
      token: string;
      timeoutMs?: number;
      leadTimeoutMs?: number;
      /** `@upstash/ratelimit`'s analytics for the read budget (KARTAGE_RATELIMIT_ANALYTICS=1; off by default). */
      analytics?: boolean;
    }
  | { kind: 'sqlite'; file: string };

/** Where leads are recorded: HubSpot, a webhook, the local file, or a misconfiguration to report. */
export type SinkConfig =
  | { kind: 'hubspot'; token: string; portalId: string; formId: string; baseUrl?: string; timeoutMs?: number }
  | { kind: 'webhook'; url: string; secret: string; timeoutMs?: number }
  | { kind: 'file'; file: string }
  /** A misconfigured sink fails lead submission (logged, 500 Error body), never every read. */
  | { kind: 'invalid'; error: string };

/** The configuration as the adapters use it: which store, which lead sink, which folders, which hosts. */
export interface Config {
  /**
   * The site's origin as this process sees it (SITE_URL, Vercel's production host, or the local server's
   * address), for links in sales notifications; the content's own origin is the build's.
   */
  origin: string;
  /** Address and port the local server listens on (HOST, PORT; 0: any free port). */
  host: string;
  port: number;
  /** Whether the local server takes the client address from X-Forwarded-For's last hop (TRUST_PROXY=1). */
  trustProxy: boolean;
  /** Folder of the build's data files (`<cwd>/build`, or KARTAGE_DATA_DIR). */
  dataDir: string;
  /** Whether KARTAGE_DATA_DIR chose `dataDir` (the middleware otherwise reads the files beside it). */
  dataDirGiven: boolean;
  /** Folder for local state (`<cwd>/var`; `/tmp/kartage` on Vercel; or KARTAGE_VAR_DIR). */
  varDir: string;
  store: StoreConfig;
  sink: SinkConfig;
  /** Slack-compatible webhook for sales notifications; unset: a log line. */
  salesWebhookUrl?: string;
  /** The secret Vercel cron sends as a bearer token; unset: the flush endpoint is a 404. */
  cronSecret?: string;
  /**
   * Host names `/mcp` answers to besides the site's own (DNS-rebinding protection): Vercel's deployment
   * hosts and MCP_ALLOWED_HOSTS; `local` also allows loopback names.
   */
  mcpHosts: { hosts: ReadonlySet<string>; local: boolean };
}

function sinkConfig(env: Env, file: string): SinkConfig {
  const hubspot = env.HUBSPOT_ACCESS_TOKEN && env.HUBSPOT_PORTAL_ID && env.HUBSPOT_FORM_ID;
  const webhook = env.LEAD_WEBHOOK_URL && env.LEAD_WEBHOOK_SECRET;
  const kind = env.LEAD_SINK ?? (hubspot ? 'hubspot' : webhook ? 'webhook' : 'file');
  const timeoutMs = env.LEAD_SINK_TIMEOUT_MS;
  if (kind === 'hubspot') {
    if (!hubspot) {
      return {
        kind: 'invalid',
        error: 'LEAD_SINK=hubspot needs HUBSPOT_ACCESS_TOKEN, HUBSPOT_PORTAL_ID and HUBSPOT_FORM_ID',
      };
    }
    return {
      kind,
      token: env.HUBSPOT_ACCESS_TOKEN!,
      portalId: env.HUBSPOT_PORTAL_ID!,
      formId: env.HUBSPOT_FORM_ID!,
      baseUrl: env.HUBSPOT_API_BASE,
      timeoutMs,
    };
  }
  if (kind === 'webhook') {
    if (!webhook) return { kind: 'invalid', error: 'LEAD_SINK=webhook needs LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET' };
    return { kind, url: env.LEAD_WEBHOOK_URL!, secret: env.LEAD_WEBHOOK_SECRET!, timeoutMs };
  }
  // An unknown LEAD_SINK never gets here: the schema refuses it at start-up.
  return { kind, file };
}

/** Reads the environment once into a `Config` (throws a `ConfigError`); `cwd` anchors the default folders. */
export function parseConfig(raw: Record<string, string | undefined>, cwd = process.cwd()): Config {
  return configOf(readEnv(raw), cwd);
}

/** The adapters' view of a checked environment. */
export function configOf(env: Env, cwd = process.cwd()): Config {
  const varDir = env.KARTAGE_VAR_DIR ?? (env.VERCEL ? '/tmp/kartage' : join(cwd, 'var'));
  const dbFile = join(varDir, DB_FILE);
  const url = env.UPSTASH_REDIS_REST_URL ?? env.KV_REST_API_URL;
  const token = env.UPSTASH_REDIS_REST_TOKEN ?? env.KV_REST_API_TOKEN;
  const hosts = new Set<string>();
  for (const host of [env.VERCEL_URL, env.VERCEL_BRANCH_URL, env.VERCEL_PROJECT_PRODUCTION_URL]) {
    if (host) hosts.add(host.toLowerCase());
  }
  for (const host of env.MCP_ALLOWED_HOSTS) hosts.add(host);
  return {
    origin: siteOrigin(env),
    host: env.HOST,
    port: env.PORT,
    trustProxy: env.TRUST_PROXY,
    dataDir: env.KARTAGE_DATA_DIR ?? join(cwd, DATA_DIR),
    dataDirGiven: env.KARTAGE_DATA_DIR !== undefined,
    varDir,
    store:
      url && token
        ? {
            kind: 'upstash',
            url,
            token,
            timeoutMs: env.KARTAGE_STORE_TIMEOUT_MS,
            leadTimeoutMs: env.KARTAGE_LEAD_STORE_TIMEOUT_MS,
            analytics: env.KARTAGE_RATELIMIT_ANALYTICS,
          }
        : { kind: 'sqlite', file: dbFile },
    sink: sinkConfig(env, dbFile),
    salesWebhookUrl: env.SALES_WEBHOOK_URL,
    cronSecret: env.CRON_SECRET,
    mcpHosts: { hosts, local: !env.VERCEL },
  };
}
