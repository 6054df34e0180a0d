/** @module A value kept in a bounded map: the chat's pages, sentences, terms and words, search's long folds. */

/** A value kept in a map of at most `most` (the oldest dropped), made on first use. */
export function kept<K, V>(map: Map<K, V>, key: K, make: () => V, most = 256): V {
  let v = map.get(key);
  if (v === undefined) {
    if (map.size >= most) map.delete(map.keys().next().value!);
    map.set(key, (v = make()));
  }
  return v;
}
