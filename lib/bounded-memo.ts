/**
 * `compute` remembered per key, for the values pages repeat over thousands of elements or links
 * (class attributes, id values, link URLs). The map is emptied when it reaches `max` entries: a
 * long crawl never grows it without bound, and starting afresh costs only recomputing.
 *
 * A string key is kept as a copy of its own. A key cut from a page (linkedom's attribute values
 * are views into the fetched HTML: V8 makes a slice of 13 characters or more a view into the
 * string it was cut from) would keep that whole page alive while it is in the map: a few
 * thousand class names held dozens of pages' HTML through the crawl and past it.
 */
export function boundedMemo<K, V>(max: number, compute: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    // One lookup for a hit; `has` only tells a remembered `undefined` from a miss.
    const known = cache.get(key);
    if (known !== undefined || cache.has(key)) return known as V;
    const value = compute(key);
    if (cache.size >= max) cache.clear();
    cache.set(typeof key === 'string' ? (ownString(key) as K) : key, value);
    return value;
  };
}

/**
 * `text` in a string of its own, not a view into a longer one: joining forces a fresh flat string,
 * and the slice of that holds only itself. Short strings are copies already.
 */
export function ownString(text: string): string {
  return text.length < 13 ? text : `${text} `.slice(0, -1);
}
