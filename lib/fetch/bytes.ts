/** Joins body chunks read from a stream into one buffer of `total` bytes. */
export function concatBytes(chunks: Uint8Array[], total = chunks.reduce((n, c) => n + c.byteLength, 0)): Uint8Array {
  // A body that came in one chunk is that chunk: the stream hands it over and never touches it again.
  const [only] = chunks;
  if (chunks.length === 1 && only && only.byteLength === total) return only;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
