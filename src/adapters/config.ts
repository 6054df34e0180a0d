/**
 * @module The configuration as the adapters use it: the environment read once with the one schema
 * (src/config.ts, README "Configuration") and shaped into a typed `Config` (which store, which lead sink,
 * which folders, which hosts). Entry points (a Vercel function, the middleware, the local server, a script)
 * call `parseConfig(process.env)` once and pass the result on; nothing else reads `process.env`.
 */
import { join } from 'node:path';
import { readEnv, siteOrigin, type Env } from '../config.ts';
import { DATA_DIR } from '../core/content.ts';
import { DB_FILE } from './sqlite-store/index.ts';

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

export type SinkConfig =
  | { kind: 'hubspot'; token: string; portalId: string; formId: string; baseUrl?: string; timeoutMs?: number }
  | { kind: 'webhook'; url: string; secret: string; timeoutMs?: number }
  | { kind: 'file'; file: string }
  /** A misconfigured sink fails lead submission (logged, 500 Error body), never every read. */
  | { kind: 'invalid'; error: string };

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

/**
 * Reads the environment once (throws a `ConfigError` naming each malformed variable). `cwd` anchors the
 * default data and state folders.
 */
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
