/** @module Structured logging: one JSON line per event (Vercel keeps stdout/stderr as the function log). */
import type { Log } from '../core/ports.ts';

/** A logger writing JSON lines to `write` (default stderr, so request logs on stdout stay clean). */
export function createLog(write: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Log {
  return (event, fields = {}) => {
    try {
      write(JSON.stringify({ time: new Date().toISOString(), level: 'warn', event, ...fields }));
    } catch {
      // Logging must never break a request.
    }
  };
}
