/**
 * Words and sizes as the user reads them, in the panel and in the reasons lib/ writes (a skipped
 * page's "Larger than 5 MB"): one formatter, so the same size reads the same everywhere.
 */

/** 812 B, 14.2 KB, 5 MB, 73.3 GB (a browser's storage quota): binary units, one decimal where it says something. */
export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
  return `${Number((bytes / 1024 / 1024 / 1024).toFixed(1))} GB`;
}

/** "1 page", "1,204 pages"; `many` for irregular plurals ("1 entry", "3 entries"). */
export const plural = (n: number, word: string, many = `${word}s`) => `${n.toLocaleString('en')} ${n === 1 ? word : many}`;
