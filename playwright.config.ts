import { rmSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { E2E_BASE_URL, E2E_PORT, E2E_VAR_DIR } from './tests/e2e/env.ts';

// The lead file and outbox of the server under test start empty on every run. Only the main process
// cleans (workers load this file too, after the server is up); Playwright also empties test-results/.
if (!process.env.TEST_WORKER_INDEX) rmSync(E2E_VAR_DIR, { recursive: true, force: true });

// Debian's chromium (Playwright cannot download browsers here); see DESIGN.md section 3.
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  timeout: 30_000,
  retries: 0,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `node server/main.ts`,
    // TRUST_PROXY=1: each test sends its own X-Forwarded-For, so each has its own lead budget (5 an hour).
    // The local defaults whatever the developer's shell holds: the embedded store, the lead file, a log line.
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      TRUST_PROXY: '1',
      KARTAGE_VAR_DIR: E2E_VAR_DIR,
      LEAD_SINK: 'file',
      UPSTASH_REDIS_REST_URL: '',
      KV_REST_API_URL: '',
      SALES_WEBHOOK_URL: '',
    },
    url: `${E2E_BASE_URL}/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
