/**
 * A hint from the caller to the store, that any store may take or ignore: this row's long text
 * is also at hand as the pieces it joins to. Generation writes through the `Store` interface and
 * does not know which store it has; the CLI's takes the hint, IndexedDB's does not need it.
 */

const textPieces = new WeakMap<object, Iterable<string>>();

/**
 * Marks `row` (an output the caller is about to add) as one whose long text the caller also has
 * as `pieces`, joined exactly the text: a store that keeps text on disk (the CLI's) writes them one
 * after another, and a text V8 holds as its pieces is never joined. Other stores ignore the mark.
 */
export function withTextPieces<T extends object>(row: T, pieces: Iterable<string>): T {
  textPieces.set(row, pieces);
  return row;
}

/** The pieces `withTextPieces` gave for `row`, if any. */
export function piecesOf(row: object): Iterable<string> | undefined {
  return textPieces.get(row);
}
