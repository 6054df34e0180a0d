/**
 * @module The local lead sink: one JSON line per lead in a file (default `var/leads.jsonl`), flushed to
 * disk before the lead counts as recorded, so leads survive restarts and crashes.
 */
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { LeadSink } from '../core/ports.ts';

export function createFileSink(file: string): LeadSink {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    name: `file ${file}`,
    deliver(record) {
      const write = async () => {
        await mkdir(dirname(file), { recursive: true });
        const handle = await open(file, 'a');
        try {
          await handle.write(JSON.stringify(record) + '\n');
          await handle.datasync();
        } finally {
          await handle.close();
        }
      };
      // One write at a time, so lines never interleave.
      const run = tail.then(write, write);
      tail = run.catch(() => {});
      return run;
    },
  };
}
