/**
 * `compute` remembered per key, for the values pages repeat over thousands of elements or links
 * (class attributes, id values, link URLs). The map is emptied when it reaches `max` entries: a
 * long crawl never grows it without bound, and starting afresh costs only recomputing.
 */
export function boundedMemo<K, V>(max: number, compute: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    if (cache.has(key)) return cache.get(key) as V;
    const value = compute(key);
    if (cache.size >= max) cache.clear();
    cache.set(key, value);
    return value;
  };
}
