/**
 * What the commands share: exit codes, usage errors, option parsing, printing findings. Loaded by
 * every start (cli/scout.ts), so it imports nothing heavy: the network fetch is in ./fetch.
 */
import type { LintReport } from '../lib/headless/lint';

/** 0: clean. 1: the site or file has errors (or nothing was found / generated). 2: bad usage or unreadable input. 3: a bug. */
export const EXIT = { ok: 0, failed: 1, usage: 2, crashed: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A mistake in the command line or an input that cannot be read: exit 2 with the message. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Io {
  /** Results (stdout). */
  out: (line: string) => void;
  /** Progress and notes (stderr); silent with --quiet. */
  progress: (line: string) => void;
}

export const isUrl = (value: string): boolean => /^https?:\/\//i.test(value);

/** An absolute http(s) URL, or a usage error naming the option. */
export function parseUrl(value: string, what: string): URL {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // the same message below
  }
  throw new UsageError(`${what} must be an http(s) URL, got "${value}"`);
}

/** A whole number option within [min, max], or a usage error. */
export function intOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

export const count = (n: number, word: string, plural = `${word}s`): string => `${n.toLocaleString('en')} ${n === 1 ? word : plural}`;

/** Findings printed per file; a broken file can have thousands (--json has every one). */
const MAX_FINDINGS_SHOWN = 40;

/** A lint report as text: a headline, then one line per finding (the first 40). */
export function lintLines(label: string, report: LintReport, options: { strict?: boolean; indent?: string; limit?: number } = {}): string[] {
  const indent = options.indent ?? '';
  const verdict = report.errors || (options.strict && report.warnings) ? 'FAIL' : 'ok';
  const counts = [count(report.errors, 'error'), count(report.warnings, 'warning'), count(report.infos, 'note')].join(', ');
  const lines = [`${indent}${verdict.padEnd(4)} ${label}: ${report.chars.toLocaleString('en')} characters, ${report.tokens.toLocaleString('en')} tokens; ${counts}`];
  const shown = report.findings.slice(0, options.limit ?? MAX_FINDINGS_SHOWN);
  for (const f of shown) lines.push(`${indent}  ${f.severity.padEnd(7)} line ${String(f.line).padEnd(5)} ${f.code}: ${f.message}`);
  const more = report.findings.length - shown.length;
  if (more > 0) lines.push(`${indent}  … ${count(more, 'more finding')} (--json lists all)`);
  return lines;
}
