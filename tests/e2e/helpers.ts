/**
 * @module Helpers of the browser tests: a client identity per test (the server under test trusts
 * X-Forwarded-For, so each test gets its own lead budget) and the local lead file the server writes.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { PROJECT_ROOT, type RunningServer, startServer } from '../../server/main.ts';
import { createDeps } from '../../src/adapters/composition-root.ts';
import { createMemoryStore } from '../../src/adapters/memory-store/index.ts';
import type { Store } from '../../src/core/ports.ts';
import { readLeads } from '../../src/adapters/sqlite-store/index.ts';
import { E2E_LEAD_FILE } from './env.ts';

/** A lead as the file sink records it (src/core/ports.ts LeadRecord). */
export interface LeadLine {
  id: string;
  receivedAt: string;
  source?: string;
  lead: Record<string, string>;
}

/** Every lead in the local lead table of the server under test, oldest first ([] before the first lead). */
export async function leadLines(file = E2E_LEAD_FILE): Promise<LeadLine[]> {
  return readLeads(file) as unknown as LeadLine[];
}

/**
 * A client address of its own for this test (and `n`, for several within one test), stable across runs
 * and distinct between tests: 10.x.y.z from a hash of the test's title path.
 */
export function clientFor(info: TestInfo, n = 0): string {
  const h = createHash('sha256')
    .update(`${info.titlePath.join(' > ')}#${info.retry}#${n}`)
    .digest();
  return `10.${h[0]}.${h[1]}.${(h[2]! % 250) + 2}`;
}

/** Makes every request of `page` come from `client` (as the server under test counts clients). */
export async function actAs(page: Page, client: string): Promise<void> {
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': client });
}

/** A complete demo booking: every Lead field of the contract, as the form's controls take them. */
export const FULL_BOOKING = {
  name: 'Priya Raman',
  email: 'priya.raman@coastwide-relocations.example',
  company: 'Coastwide Relocations',
  dialcode: '+64',
  phone: '021 555 0142',
  country: 'New Zealand',
  segment: 'International',
  warehouses: '2-5',
  moves: '2,000-10,000',
  message: 'We run 24 trucks between Auckland and Sydney.\nPlease show us storage billing and customs documents.',
} as const;

/**
 * Opens `url` and waits until its lead form's script has wired it (the script sets `novalidate`). The script is
 * imported after the page loads: a click before then gets the browser's own checks and a native post (the
 * no-JavaScript path, which its own tests cover), not the form's.
 */
export async function openLeadForm(page: Page, url: string) {
  const res = await page.goto(url);
  await expect(page.locator('#lead-form')).toHaveAttribute('novalidate', '');
  return res;
}

/** Fills the lead form on the current page with `values` (text fields filled, selects chosen). */
export async function fillLeadForm(
  page: Page,
  values: Partial<Record<keyof typeof FULL_BOOKING, string>>,
): Promise<void> {
  for (const [field, value] of Object.entries(values)) {
    const control = page.locator(`#lf-${field}`);
    if (['segment', 'warehouses', 'moves'].includes(field)) await control.selectOption(value);
    else await control.fill(value);
  }
}

/**
 * A local server on its own port whose CRM and outbox both fail (so a lead is recorded nowhere: the contract's
 * 502), for the lead form's and the chat's 502 states; over `distDir`'s pages (default the checkout's dist/).
 */
export async function startRecordingNowhereServer(distDir?: string): Promise<RunningServer> {
  const fail = (what: string) => () => Promise.reject(new Error(what));
  const store: Store = { ...createMemoryStore(), outboxPush: fail('disk full') };
  const deps = createDeps({
    env: process.env,
    dataDir: join(PROJECT_ROOT, 'build'),
    store,
    sink: { name: 'crm (down)', deliver: fail('CRM unreachable') },
    log: () => {},
  });
  return startServer({ host: '127.0.0.1', port: 0, root: PROJECT_ROOT, distDir, deps, log: () => {} });
}

/** A local server of one test's own: its lead table and in-process store, no other test's leads or budgets. */
export interface LeadServer {
  url: string;
  /** Every lead in this server's lead table, oldest first. */
  leads: () => Promise<LeadLine[]>;
  close: () => Promise<void>;
}

/**
 * Starts a server over the checkout's dist/ and build/ with its own state folder (the lead table, the outbox) and
 * an in-process store, trusting X-Forwarded-For as the Playwright server does; `close` removes the folder.
 */
export async function startLeadServer(): Promise<LeadServer> {
  const varDir = mkdtempSync(join(tmpdir(), 'kartage-e2e-leads-'));
  const deps = createDeps({
    env: { LEAD_SINK: 'file', KARTAGE_VAR_DIR: varDir },
    dataDir: join(PROJECT_ROOT, 'build'),
    store: createMemoryStore(),
    log: () => {},
  });
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    root: PROJECT_ROOT,
    trustProxy: true,
    deps,
    log: () => {},
  });
  return {
    url: server.url,
    leads: () => leadLines(join(varDir, 'kartage.db')),
    close: async () => {
      await server.close();
      rmSync(varDir, { recursive: true, force: true });
    },
  };
}

/** A Playwright fixture: a server of the test's own (`startLeadServer`), closed after the test. */
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
export async function leadSite({}, use: (site: LeadServer) => Promise<void>): Promise<void> {
  const site = await startLeadServer();
  await use(site);
  await site.close();
}
