/**
 * Where the memory store keeps the big text of its rows when it is told to (`MemoryStore`'s
 * `spill` option, which the CLI's commands set): a page's Markdown and an output's text are
 * written to one file in a temporary folder of the store's own, and the row keeps only where.
 * A crawl's pages are then held on disk, not in the heap, from the crawl to the command's end:
 * each body is read back when a row is copied out (structuredClone and JSON read the field), so
 * the engine sees the same records, and a page is in memory only while a caller holds its copy.
 *
 * Node only (node:fs); synchronous, because a memory body's all-or-nothing writes may not yield
 * (store.ts). The folder is removed by `close()`, and, for a command that ends otherwise (an
 * error, Ctrl-C, SIGTERM), when the process exits.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RowSpill } from './store';

/** Where one body is in the spill file, and how it was encoded. */
export interface BodyRef {
  at: number;
  bytes: number;
  /**
   * UTF-16 for a string with a lone surrogate, which UTF-8 cannot hold and IndexedDB keeps, and for
   * a body of one write (`WRITE_CHARS`) with a character past U+00FF (see `write`); else UTF-8.
   */
  utf16: boolean;
  chars: number;
}

// Characters of a long body encoded at a time (at most three bytes each in UTF-8, two in UTF-16).
const WRITE_CHARS = 1 << 16;

// Bytes of a long body read at a time when it is written out as bytes (`utf8Chunks`).
const READ_BYTES = 1 << 20;

// The largest read buffer a spill keeps between reads: a body up to this size is read into it and
// decoded from there; a longer one (a rare page, an llms-full.txt) gets a buffer of its own.
const KEEP_READ_BYTES = 1 << 20;

// A character that neither ASCII nor Latin-1 holds: its string is two bytes a character in V8.
const WIDE = /[\u0100-\uffff]/;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** Shorter bodies stay in the row: a file read would cost more than the memory it saves. */
export const SPILL_MIN_CHARS = 1024;

export class BodySpill implements RowSpill {
  private dir?: string;
  private fd?: number;
  private end = 0;
  private closed = false;
  private scratch?: Buffer;
  private readBuffer?: Buffer;
  /** Where each held field of a row is: a copy of the row can point at the same bytes without reading them. */
  private readonly refs = new WeakMap<object, Map<string, BodyRef>>();

  constructor(
    /** Where the temporary folder is made (the system's temporary folder by default). */
    private readonly parent = tmpdir(),
    readonly minChars = SPILL_MIN_CHARS,
  ) {}

  /** The folder, made at the first body written; undefined before that and after `close()`. */
  get folder(): string | undefined {
    return this.dir;
  }

  /**
   * Writes `text` at the end of the file and says where. A long text is encoded a slice at a time
   * into one buffer the spill keeps: its bytes (an llms-full.txt is tens of MB) are never all in
   * memory beside the string, nor left for the collector.
   */
  write(text: string, wide = true): BodyRef {
    if (this.closed) throw new Error('The store was closed: its bodies are gone.');
    if (this.fd === undefined) {
      this.dir = mkdtempSync(join(this.parent, 'scout-store-'));
      this.fd = openSync(join(this.dir, 'bodies'), 'w+', 0o600);
      open.add(this);
      watchExit();
    }
    // A page with a character past U+00FF (a typographic quote is enough) is a two-byte string in
    // V8 whichever way it is kept on disk, and Node decodes UTF-8 that is not all ASCII about five
    // times slower than UTF-16, which it copies (Python docs: 0.24 → 0.05 ms a page, and
    // generation reads every page twice). Such a body of one write is kept in UTF-16, twice its
    // bytes on disk; a longer text (an llms-full.txt), or one written in parts (`wide` false), in UTF-8.
    const utf16 = !text.isWellFormed() || (wide && text.length <= WRITE_CHARS && WIDE.test(text));
    const ref = { at: this.end, bytes: 0, utf16, chars: text.length };
    const encoding = utf16 ? 'utf16le' : 'utf8';
    // A short body is encoded at once; a long one a slice at a time into one scratch buffer.
    const scratch = text.length > WRITE_CHARS ? (this.scratch ??= Buffer.allocUnsafe(WRITE_CHARS * 3)) : undefined;
    let from = 0;
    do {
      let to = Math.min(text.length, from + WRITE_CHARS);
      // A surrogate pair is never cut: UTF-8 encodes it as one character.
      if (!utf16 && to < text.length && isHighSurrogate(text.charCodeAt(to - 1))) to--;
      const slice = scratch ? text.slice(from, to) : text;
      const buffer = scratch ? scratch.subarray(0, scratch.write(slice, 0, encoding)) : Buffer.from(slice, encoding);
      let done = 0;
      while (done < buffer.length) done += writeSync(this.fd, buffer, done, buffer.length - done, this.end + done);
      this.end += buffer.length;
      ref.bytes += buffer.length;
      from = to;
    } while (from < text.length);
    return ref;
  }

  /**
   * Writes `pieces` one after another as one body, and says where: the text they join to, without
   * joining it. Pieces that are not all well-formed are joined and written as `write` would.
   */
  writeAll(pieces: Iterable<string>): BodyRef {
    const held: string[] = [];
    let ref: BodyRef | undefined;
    // Short pieces (a page's header, the newlines between pages) are written together, a write at a time.
    let pending = '';
    const flush = () => {
      if (!pending) return;
      // One encoding for every part: their bytes are read back as one body.
      const at = this.write(pending, false);
      pending = '';
      ref = ref ? { ...ref, bytes: ref.bytes + at.bytes, chars: ref.chars + at.chars } : at;
    };
    for (const piece of pieces) {
      if (held.length || !piece.isWellFormed()) {
        flush();
        held.push(piece);
        continue;
      }
      pending += piece;
      if (pending.length >= WRITE_CHARS) flush();
    }
    flush();
    if (!held.length) return ref ?? this.write('');
    // A lone surrogate (or a pair cut between pieces): the whole text, written again in one encoding.
    return this.write((ref ? this.read(ref) : '') + held.join(''));
  }

  /**
   * The body as a string. Its bytes are read into one buffer the spill keeps and decoded from
   * there: a page read back is then a string only, not also a buffer of its bytes left for the
   * collector (generation reads every page's Markdown twice, tens of MB of buffers on a large site).
   */
  read(ref: BodyRef): string {
    const encoding = ref.utf16 ? 'utf16le' : 'utf8';
    if (ref.bytes > KEEP_READ_BYTES) return this.bytes(ref).toString(encoding);
    if (!this.readBuffer || this.readBuffer.length < ref.bytes) this.readBuffer = Buffer.allocUnsafe(Math.max(ref.bytes, this.readBuffer ? Math.min(KEEP_READ_BYTES, this.readBuffer.length * 2) : 1 << 16));
    return this.bytes(ref, this.readBuffer).toString(encoding, 0, ref.bytes);
  }

  /**
   * The body as the UTF-8 a file of it holds, without making it a string: a file written from the
   * spill (llms-full.txt, tens of MB) is then in memory once, as bytes, not as bytes, a string and
   * bytes again. A body with a lone surrogate is encoded as writing its string would (U+FFFD).
   */
  utf8(ref: BodyRef): Buffer {
    return ref.utf16 ? Buffer.from(this.read(ref), 'utf8') : this.bytes(ref);
  }

  /**
   * `utf8(ref)` a slice of bytes at a time (joined, they are its bytes): a file written from them
   * holds no more than a slice of a long body (llms-full.txt, tens of MB) in memory at once.
   */
  *utf8Chunks(ref: BodyRef, size = READ_BYTES): Generator<Buffer> {
    if (ref.utf16) {
      yield this.utf8(ref);
      return;
    }
    for (let from = 0; from < ref.bytes; from += size) yield this.bytes({ ...ref, at: ref.at + from, bytes: Math.min(size, ref.bytes - from) });
  }

  private bytes(ref: BodyRef, buffer: Buffer = Buffer.allocUnsafe(ref.bytes)): Buffer {
    if (this.fd === undefined) throw new Error('The store was closed: its bodies are gone.');
    let done = 0;
    while (done < ref.bytes) {
      const n = readSync(this.fd, buffer, done, ref.bytes - done, ref.at + done);
      if (n === 0) throw new Error("The store's body file ends early.");
      done += n;
    }
    return buffer;
  }

  /**
   * Keeps `record[field]` on disk when it is a long string: the field becomes an accessor that
   * reads it back, in the same place among the record's keys (so a copy or JSON of the record is
   * the one the caller gave). The record must be the store's own (a copy).
   */
  hold<T extends object>(record: T, field: keyof T & string): T {
    // A copy that `copyHeld` made already points at its text on disk: nothing to read or write.
    if (this.heldAt(record, field)) return record;
    const value = (record as Record<string, unknown>)[field];
    if (typeof value !== 'string' || value.length < this.minChars) return record;
    return this.keep(record, field, this.write(value));
  }

  /**
   * `hold`, for a text the caller also has as `pieces` (joined, they are the text): they are
   * written one after another, so a text V8 keeps as its pieces (llms-full.txt, tens of MB) is
   * never joined into one string beside them. Pieces that do not join to the text's length are
   * not it: the text itself is written then.
   */
  holdPieces<T extends object>(record: T, field: keyof T & string, pieces: Iterable<string>): T {
    const value = (record as Record<string, unknown>)[field];
    if (typeof value !== 'string' || value.length < this.minChars) return record;
    const ref = this.writeAll(pieces);
    return this.keep(record, field, ref.chars === value.length ? ref : this.write(value));
  }

  /**
   * A copy of `record` (`copy` of its other fields) whose `field`, when this spill holds it, is the
   * same text on disk, in the same place among the keys, never read back: a row updated beside
   * its text (a page's token counts) costs no read and no second write of a body. A record whose
   * field is not held is copied whole.
   */
  copyHeld<T extends object>(record: T, field: keyof T & string, copy: <V>(value: V) => V): T {
    const ref = this.heldAt(record, field);
    if (!ref) return copy(record);
    // The text's place held by an empty string, so the copy's keys keep the record's order.
    const shell: Record<string, unknown> = {};
    for (const key of Object.keys(record)) shell[key] = key === field ? '' : (record as Record<string, unknown>)[key];
    return this.keep(copy(shell) as T, field, ref);
  }

  /** Where `record[field]` is on disk when this spill holds it (its accessor still the spill's own). */
  private heldAt(record: object, field: string): BodyRef | undefined {
    const ref = this.refs.get(record)?.get(field);
    return ref && Object.getOwnPropertyDescriptor(record, field)?.get ? ref : undefined;
  }

  private keep<T extends object>(record: T, field: keyof T & string, written: BodyRef): T {
    let fields = this.refs.get(record);
    if (!fields) this.refs.set(record, (fields = new Map()));
    const refs = fields;
    refs.set(field, written);
    Object.defineProperty(record, field, {
      enumerable: true,
      configurable: true,
      get: () => this.read(refs.get(field) as BodyRef),
      set: (text: string) => {
        refs.set(field, this.write(text));
      },
    });
    return record;
  }

  /** Removes the folder and everything in it; the store's spilled rows cannot be read after. */
  close(): void {
    this.closed = true;
    this.scratch = undefined;
    this.readBuffer = undefined;
    open.delete(this);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

/** The spills not closed yet, removed when the process ends whatever way it ends. */
const open = new Set<BodySpill>();
let watching = false;

function closeAll(): void {
  for (const spill of [...open]) spill.close();
}

/**
 * Removes every open spill's folder at exit. Node ends on SIGINT and SIGTERM without an 'exit'
 * event when nothing listens for them; so the spill listens, removes the folders, and raises the
 * signal again once it is the only listener (the process then ends as it would have, with the
 * signal's exit status). A command with its own listener (scout serve) ends as it decides.
 */
function watchExit(): void {
  if (watching) return;
  watching = true;
  process.on('exit', closeAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    // First in line, so the count still holds a command's own listener (a `once` one is gone after it runs).
    const onSignal = () => {
      closeAll();
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.prependListener(signal, onSignal);
  }
}
