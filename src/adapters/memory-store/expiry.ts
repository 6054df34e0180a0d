/** @module Entries that expire, in maps swept of them at most once a minute (a read checks expiry itself). */

/** A value kept until `until` (epoch ms). */
export interface Entry<T> {
  value: T;
  until: number;
}

/** Maps of expiring entries, and the sweep that frees the expired ones. */
export interface Expiry {
  /** A new map whose expired entries the sweep deletes. */
  map<T>(): Map<string, Entry<T>>;
  /** Deletes expired entries from every map, when a minute has passed since the last sweep. */
  sweep(now: number): void;
}

/** A set of maps swept together. */
export function expiring(): Expiry {
  const maps: Map<string, Entry<unknown>>[] = [];
  let lastSweep = 0;
  return {
    map<T>() {
      const map = new Map<string, Entry<T>>();
      maps.push(map as Map<string, Entry<unknown>>);
      return map;
    },
    sweep(now) {
      if (now - lastSweep < 60_000) return;
      lastSweep = now;
      for (const map of maps) {
        for (const [k, e] of map) if (e.until <= now) map.delete(k);
      }
    },
  };
}
