/**
 * The one configuration schema (src/config.ts): docs/configuration.md lists exactly its variables with
 * their defaults, a full valid environment parses, and a malformed value is an error naming the variable.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  analyticsOf,
  ConfigError,
  documentedDefaults,
  EnvSchema,
  parseConfig,
  readEnv,
  siteOrigin,
} from '../src/config.ts';

const PAGE = readFileSync(join(import.meta.dirname, '..', 'docs', 'configuration.md'), 'utf8');

/** Each variable of the configuration page's table with its Default cell (a row may name several). */
function documentedTable(): Record<string, string> {
  const rows = PAGE.split('\n').filter((line) => /^\| `/.test(line));
  const table: Record<string, string> = {};
  for (const row of rows) {
    const [names = '', def = ''] = row.split(/(?<!\\)\|/).slice(1, 3);
    for (const [, name] of names.matchAll(/`([A-Z0-9_]+)`/g)) {
      expect(table, `${name} is in the table twice`).not.toHaveProperty(name!);
      table[name!] = def.trim();
    }
  }
  return table;
}

/** Every variable set to a valid value other than its default. */
const FULL_ENV = {
  HOST: '0.0.0.0',
  PORT: '4500',
  SITE_URL: 'https://www.example.com/',
  TRUST_PROXY: '1',
  KARTAGE_DATA_DIR: '/srv/kartage/build',
  KARTAGE_VAR_DIR: '/srv/kartage/var',
  UPSTASH_REDIS_REST_URL: 'https://eu1.upstash.example',
  UPSTASH_REDIS_REST_TOKEN: 'upstash-token',
  KV_REST_API_URL: 'https://kv.upstash.example',
  KV_REST_API_TOKEN: 'kv-token',
  KARTAGE_STORE_TIMEOUT_MS: '250',
  KARTAGE_LEAD_STORE_TIMEOUT_MS: '2000',
  KARTAGE_RATELIMIT_ANALYTICS: '1',
  LEAD_SINK: 'webhook',
  HUBSPOT_ACCESS_TOKEN: 'pat-na1-token',
  HUBSPOT_PORTAL_ID: '123456',
  HUBSPOT_FORM_ID: 'form-guid',
  HUBSPOT_API_BASE: 'https://hubspot.example',
  LEAD_WEBHOOK_URL: 'https://crm.example/hooks/leads',
  LEAD_WEBHOOK_SECRET: 'webhook-secret',
  LEAD_SINK_TIMEOUT_MS: '4000',
  SALES_WEBHOOK_URL: 'https://hooks.slack.example/T000/B000',
  CRON_SECRET: 'a-cron-secret-of-16-plus',
  MCP_ALLOWED_HOSTS: ' Agents.Example.com, ,mcp.example ',
  VERCEL: '1',
  VERCEL_URL: 'kartage-abc123.vercel.app',
  VERCEL_BRANCH_URL: 'kartage-git-main.vercel.app',
  VERCEL_PROJECT_PRODUCTION_URL: 'kartage.vercel.app',
  KARTAGE_SKIP_DERIVE: '1',
  KARTAGE_DERIVE_WORKERS: '3',
  KARTAGE_DERIVE_TIMINGS: '1',
  ANALYTICS: 'off',
};

/** The message `readEnv` throws for `env`, or undefined when it parses. */
function problem(env: Record<string, string>): string | undefined {
  try {
    readEnv(env);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
}

describe('the configuration table of docs/configuration.md', () => {
  it('lists every variable of the schema with its default, and no other', () => {
    expect(documentedTable()).toEqual(documentedDefaults());
  });

  it('has its defaults where the schema applies them (unset and empty alike)', () => {
    const empty = Object.fromEntries(Object.keys(EnvSchema.shape).map((k) => [k, '']));
    for (const env of [readEnv({}), readEnv(empty)]) {
      for (const [name, shown] of Object.entries(documentedDefaults())) {
        const value = env[name as keyof typeof env];
        const literal = /^`([^`<$]*)`$/.exec(shown)?.[1];
        if (literal !== undefined) expect(String(value), name).toBe(literal);
        // No value of its own: off, empty, or chosen from other settings or the machine.
        else if (['unset', 'set by Vercel', 'inferred', 'one per core'].includes(shown))
          expect(value === undefined || value === false || (Array.isArray(value) && !value.length), name).toBe(true);
        // The folders and the origin depend on the working directory or PORT: checked through parseConfig.
        else expect(['KARTAGE_DATA_DIR', 'KARTAGE_VAR_DIR', 'SITE_URL'], name).toContain(name);
      }
    }
    const c = parseConfig({}, '/work/site');
    expect(c).toMatchObject({
      origin: 'http://localhost:4321',
      host: '127.0.0.1',
      port: 4321,
      trustProxy: false,
      dataDir: '/work/site/build',
      dataDirGiven: false,
      varDir: '/work/site/var',
      store: { kind: 'sqlite', file: '/work/site/var/kartage.db' },
      sink: { kind: 'file', file: '/work/site/var/kartage.db' },
      mcpHosts: { local: true },
    });
    expect([...c.mcpHosts.hosts]).toEqual([]);
    expect(parseConfig({ VERCEL: '1' }, '/work/site').varDir).toBe('/tmp/kartage');
    expect(parseConfig({ PORT: '4500' }).origin).toBe('http://localhost:4500');
    expect(parseConfig({ PORT: '0' }).origin).toBe('http://localhost:4321');
  });
});

describe('readEnv', () => {
  it('parses a full valid environment into typed settings', () => {
    expect(Object.keys(FULL_ENV).sort()).toEqual(Object.keys(EnvSchema.shape).sort());
    const env = readEnv(FULL_ENV);
    expect(env).toMatchObject({
      PORT: 4500,
      TRUST_PROXY: true,
      KARTAGE_STORE_TIMEOUT_MS: 250,
      KARTAGE_LEAD_STORE_TIMEOUT_MS: 2000,
      KARTAGE_RATELIMIT_ANALYTICS: true,
      LEAD_SINK: 'webhook',
      LEAD_SINK_TIMEOUT_MS: 4000,
      MCP_ALLOWED_HOSTS: ['agents.example.com', 'mcp.example'],
      KARTAGE_SKIP_DERIVE: true,
      KARTAGE_DERIVE_WORKERS: 3,
      KARTAGE_DERIVE_TIMINGS: true,
    });
    expect(siteOrigin(env)).toBe('https://www.example.com');
    const c = parseConfig(FULL_ENV);
    expect(c).toMatchObject({
      origin: 'https://www.example.com',
      host: '0.0.0.0',
      port: 4500,
      trustProxy: true,
      dataDir: '/srv/kartage/build',
      dataDirGiven: true,
      varDir: '/srv/kartage/var',
      store: {
        kind: 'upstash',
        url: 'https://eu1.upstash.example',
        token: 'upstash-token',
        timeoutMs: 250,
        leadTimeoutMs: 2000,
        analytics: true,
      },
      sink: {
        kind: 'webhook',
        url: 'https://crm.example/hooks/leads',
        secret: 'webhook-secret',
        timeoutMs: 4000,
      },
      salesWebhookUrl: 'https://hooks.slack.example/T000/B000',
      cronSecret: 'a-cron-secret-of-16-plus',
      mcpHosts: { local: false },
    });
    expect([...c.mcpHosts.hosts].sort()).toEqual([
      'agents.example.com',
      'kartage-abc123.vercel.app',
      'kartage-git-main.vercel.app',
      'kartage.vercel.app',
      'mcp.example',
    ]);
  });

  it('refuses a malformed number, naming the variable and what it expected', () => {
    expect(problem({ KARTAGE_STORE_TIMEOUT_MS: '3OO' })).toContain(
      'KARTAGE_STORE_TIMEOUT_MS must be a whole number of milliseconds, got "3OO"',
    );
    expect(problem({ LEAD_SINK_TIMEOUT_MS: '1.5' })).toContain(
      'LEAD_SINK_TIMEOUT_MS must be a whole number of milliseconds, got "1.5"',
    );
    expect(problem({ KARTAGE_LEAD_STORE_TIMEOUT_MS: '0' })).toContain(
      'KARTAGE_LEAD_STORE_TIMEOUT_MS must be at least 1 millisecond, got "0"',
    );
    expect(problem({ PORT: '80a' })).toContain('PORT must be a port number from 0 to 65535, got "80a"');
    expect(problem({ PORT: '65536' })).toContain('PORT must be a port number from 0 to 65535, got "65536"');
    expect(problem({ KARTAGE_DERIVE_WORKERS: '0' })).toContain(
      'KARTAGE_DERIVE_WORKERS must be a whole number of worker threads, 1 or more, got "0"',
    );
  });

  it('refuses an unknown choice, naming the variable and the choices', () => {
    expect(problem({ LEAD_SINK: 'hubsopt' })).toContain('LEAD_SINK must be hubspot, webhook or file, got "hubsopt"');
    expect(problem({ TRUST_PROXY: 'true' })).toContain('TRUST_PROXY must be 1 (on) or 0 (off), got "true"');
    expect(problem({ KARTAGE_SKIP_DERIVE: 'yes' })).toContain(
      'KARTAGE_SKIP_DERIVE must be 1 (on) or 0 (off), got "yes"',
    );
    expect(problem({ SITE_URL: 'www.example.com' })).toContain(
      'SITE_URL must be an absolute http(s) URL, got "www.example.com"',
    );
    expect(problem({ ANALYTICS: 'google' })).toContain('ANALYTICS must be vercel or off, got "google"');
  });

  it("builds the pages' analytics only where asked: Vercel's on Vercel, none elsewhere unless set", () => {
    expect(analyticsOf(readEnv({}))).toBe('off');
    expect(analyticsOf(readEnv({ VERCEL: '1' }))).toBe('vercel');
    expect(analyticsOf(readEnv({ ANALYTICS: 'vercel' }))).toBe('vercel');
    expect(analyticsOf(readEnv({ VERCEL: '1', ANALYTICS: 'off' }))).toBe('off');
    expect(analyticsOf(readEnv({ ANALYTICS: ' vercel ' }))).toBe('vercel');
  });

  it('names every malformed variable at once, and parseConfig fails the same way', () => {
    const message = problem({ KARTAGE_STORE_TIMEOUT_MS: '3OO', LEAD_SINK: 'crm', PORT: '4321' }) ?? '';
    expect(message.split('\n').slice(1)).toEqual([
      '  KARTAGE_STORE_TIMEOUT_MS must be a whole number of milliseconds, got "3OO"',
      '  LEAD_SINK must be hubspot, webhook or file, got "crm"',
    ]);
    expect(() => parseConfig({ KARTAGE_STORE_TIMEOUT_MS: '3OO' })).toThrow(ConfigError);
  });

  it('keeps a named sink without its settings a lead-time error, not a start-up one', () => {
    expect(parseConfig({ LEAD_SINK: 'hubspot' }).sink).toEqual({
      kind: 'invalid',
      error: 'LEAD_SINK=hubspot needs HUBSPOT_ACCESS_TOKEN, HUBSPOT_PORTAL_ID and HUBSPOT_FORM_ID',
    });
  });
});
