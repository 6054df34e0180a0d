/**
 * @module Settings shared by the Playwright config and the browser tests: the port of the server
 * Playwright starts, and the folder that server keeps its local state in (the lead file and the outbox),
 * under test-results/ so the tests never touch the developer's var/.
 */
import { resolve } from 'node:path';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4391);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** KARTAGE_VAR_DIR of the server under test. */
export const E2E_VAR_DIR = resolve(import.meta.dirname, '../../test-results/e2e-var');
/** The SQLite file of that server, whose `leads` table is the default sink (inside KARTAGE_VAR_DIR). */
export const E2E_LEAD_FILE = resolve(E2E_VAR_DIR, 'kartage.db');
