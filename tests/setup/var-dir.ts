/**
 * Each test file's servers keep their local state (the SQLite store, `KARTAGE_VAR_DIR/kartage.db`) in a
 * fresh temporary folder: that state survives restarts by design, so a shared `var/` would carry one
 * run's spent budgets and keys into the next. Servers spawned as child processes inherit it.
 *
 * Every other temporary folder a test file makes (`mkdtemp(join(tmpdir(), …))`: stores, lead sinks, CRM
 * fakes) goes inside the same per-file folder too (TMPDIR points there; os.tmpdir() reads it on each call),
 * and the whole folder is removed when the file's tests end, so a test run leaves nothing in /tmp.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const root = mkdtempSync(join(tmpdir(), 'kartage-test-'));
process.env.TMPDIR = root;
process.env.KARTAGE_VAR_DIR = join(root, 'var');
mkdirSync(process.env.KARTAGE_VAR_DIR);

afterAll(() => {
  rmSync(root, { recursive: true, force: true, maxRetries: 3 });
});
