/** Each engine names itself in the start-up line (`Store.describe`): the in-process store, the file, the host. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore } from '../../../src/adapters/memory-store/index.ts';
import { createSqliteStore } from '../../../src/adapters/sqlite-store/index.ts';
import { createUpstashStore } from '../../../src/adapters/upstash-store/index.ts';

describe('each engine names itself in the start-up line', () => {
  it('the in-process store, the SQLite file and the Upstash host are named', () => {
    expect(createMemoryStore().describe()).toBe('in-process store (memory)');
    const file = join(mkdtempSync(join(tmpdir(), 'kartage-describe-')), 'kartage.db');
    expect(createSqliteStore({ file }).describe()).toBe(`embedded store (SQLite ${file})`);
    // Nothing is sent to Upstash until a first operation: a host that answers nothing is enough here.
    expect(createUpstashStore({ url: 'https://upstash.example:8443', token: 't' }).describe()).toBe(
      'Upstash Redis at upstash.example:8443',
    );
  });
});
