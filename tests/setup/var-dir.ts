/**
 * Each test file's servers keep their local state (the SQLite store, `KARTAGE_VAR_DIR/kartage.db`) in a
 * fresh temporary folder: that state survives restarts by design, so a shared `var/` would carry one
 * run's spent budgets and keys into the next. Servers spawned as child processes inherit it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.KARTAGE_VAR_DIR = mkdtempSync(join(tmpdir(), 'kartage-test-var-'));
