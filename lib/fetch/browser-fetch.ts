/**
 * The global fetch, passed where lib/ takes a `fetch` parameter (tests pass a loopback one). A
 * wrapper, not `fetch` itself: a fetch called as a method of another object ("options.fetch(…)")
 * throws "Illegal invocation" in browsers, because it must be called with the global as `this`.
 */
export const browserFetch: typeof fetch = (input, init) => fetch(input, init);
