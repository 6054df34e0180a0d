/**
 * @module One data pack's bytes (layout: src/adapters/content-files.ts): a deflate dictionary sampled from the
 * records, then each record deflated against it. Only node:zlib here, so a pack worker thread
 * (src/build/pack-worker.ts) starts without loading the rest of the build.
 */
import { deflateRawSync } from 'node:zlib';

/** Deflate's window: a preset dictionary longer than this is never referenced. */
const DICTIONARY_BYTES = 32 * 1024;
/** Records sampled for the dictionary, and how much of each. */
const DICTIONARY_SAMPLES = 64;
/** zlib level 6 (the default); at 10,000 pages level 9 made the page pack 0.4 % smaller and took 13 % longer. */
export const LEVEL = 6;

/**
 * A preset dictionary for the records: the start of evenly spaced records (page bodies share their wording,
 * headings and markup), later samples last (deflate reaches the end of the dictionary most cheaply).
 */
export function packDictionary(records: readonly Buffer[]): Buffer {
  if (!records.length) return Buffer.alloc(0);
  const n = Math.min(DICTIONARY_SAMPLES, records.length);
  const each = Math.floor(DICTIONARY_BYTES / n);
  const parts: Buffer[] = [];
  for (let k = 0; k < n; k++) parts.push(records[Math.floor((k * records.length) / n)]!.subarray(0, each));
  return Buffer.concat(parts).subarray(0, DICTIONARY_BYTES);
}

/** Records as UTF-8, back to back in one buffer of its own (a pack worker is handed its memory, not a copy). */
export interface EncodedRecords {
  bytes: Uint8Array;
  lengths: number[];
}

export function encodeRecords(records: readonly string[]): EncodedRecords {
  const lengths = records.map((r) => Buffer.byteLength(r));
  const bytes = Buffer.allocUnsafeSlow(lengths.reduce((a, b) => a + b, 0));
  let at = 0;
  for (const r of records) at += bytes.write(r, at);
  if (at !== bytes.length) throw new Error(`pack records: wrote ${at} of ${bytes.length} bytes`);
  return { bytes, lengths };
}

/** Each record of an encoded list (views of its buffer). */
function recordsOf({ bytes, lengths }: EncodedRecords): Buffer[] {
  const out: Buffer[] = [];
  let at = bytes.byteOffset;
  for (const n of lengths) {
    out.push(Buffer.from(bytes.buffer, at, n));
    at += n;
  }
  return out;
}

/** A pack's bytes, its dictionary's length and each record's deflated length. */
export interface DeflatedPack {
  pack: Uint8Array;
  dictionary: number;
  lengths: number[];
}

/** The records deflated against a dictionary sampled from them, after it. */
export function deflatePack(encoded: EncodedRecords): DeflatedPack {
  const records = recordsOf(encoded);
  const dictionary = packDictionary(records);
  const parts: Buffer[] = [dictionary];
  const lengths: number[] = [];
  for (const record of records) {
    const z = deflateRawSync(record, { level: LEVEL, ...(dictionary.length ? { dictionary } : {}) });
    parts.push(z);
    lengths.push(z.length);
  }
  return { pack: Buffer.concat(parts), dictionary: dictionary.length, lengths };
}
