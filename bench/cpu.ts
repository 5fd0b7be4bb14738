/**
 * CPU time of the Chromium the benchmark launched, read from /proc (Linux): per process kind and,
 * inside the extension's renderer process, per thread — the service worker's thread, the main
 * thread (offscreen document and side panel share it), each conversion worker. /proc rather than
 * the DevTools protocol: it sees every thread, dedicated workers included, without attaching to
 * anything, and counts what the kernel scheduled (10 ms ticks, fine over seconds).
 */
import { readdirSync, readFileSync } from 'node:fs';

export type CpuSample = Record<string, number>;

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of a /proc stat line, in ms, and the comm (thread or process name). */
function parseStat(text: string): { comm: string; ppid: number; cpuMs: number } | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < 0) return null;
  const fields = text.slice(close + 2).split(' ');
  // After the comm: state(0) ppid(1) … utime(11) stime(12).
  return { comm: text.slice(open + 1, close), ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
}

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

/** Which Chromium process this is, from its command line. */
function kindOf(cmdline: string): string {
  if (cmdline.includes('--extension-process')) return 'extension';
  if (cmdline.includes('NetworkService')) return 'network';
  if (cmdline.includes('--type=renderer')) return 'tab renderers';
  if (cmdline.includes('--type=gpu')) return 'gpu';
  if (cmdline.includes('--type=')) return 'other';
  return 'browser';
}

/** What a thread of the extension process does, from its name. */
function threadKind(comm: string): string {
  if (/^DedicatedWorker/i.test(comm)) return 'thread: conversion workers';
  if (/^ServiceWorker/i.test(comm)) return 'thread: service worker';
  if (/^(chromium|CrRendererMain|chrome)$/i.test(comm)) return 'thread: main (offscreen, panel)';
  return 'thread: other';
}

/**
 * CPU ms so far of every process below `rootPid` (this benchmark's Node): totals per process kind,
 * and per thread kind of the extension process. Subtract two samples for a window.
 */
export function sampleCpu(rootPid = process.pid): CpuSample {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = parseStat(read(`/proc/${name}/stat`));
    if (stat) parent.set(Number(name), stat.ppid);
  }
  const isBelow = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === rootPid) return true;
    return false;
  };
  const out: CpuSample = {};
  const add = (k: string, ms: number) => (out[k] = (out[k] ?? 0) + ms);
  for (const pid of parent.keys()) {
    if (!isBelow(pid)) continue;
    const cmdline = read(`/proc/${pid}/cmdline`).replaceAll('\0', ' ');
    if (!cmdline.includes('chrom')) continue;
    const kind = kindOf(cmdline);
    const stat = parseStat(read(`/proc/${pid}/stat`));
    if (!stat) continue;
    add(kind, stat.cpuMs);
    // The browser process by thread (IndexedDB's backend, the IO thread, the UI thread…), to see what a crawl adds to it.
    if (kind === 'browser') {
      for (const tid of readdirSync(`/proc/${pid}/task`) as string[]) {
        const t = parseStat(read(`/proc/${pid}/task/${tid}/stat`));
        if (t) add(`browser thread: ${t.comm.replace(/[\s\d#/-]+$/, '')}`, t.cpuMs);
      }
    }
    if (kind !== 'extension') continue;
    for (const tid of readdirSync(`/proc/${pid}/task`, { withFileTypes: false }) as string[]) {
      const t = parseStat(read(`/proc/${pid}/task/${tid}/stat`));
      if (!t) continue;
      const threadKindName = threadKind(t.comm);
      add(threadKindName, t.cpuMs);
      // What "other" is made of, by thread name without its number (V8's GC helpers, IndexedDB, the compositor…).
      if (threadKindName === 'thread: other') add(`thread: other: ${t.comm.replace(/[\s\d#/-]+$/, '')}`, t.cpuMs);
    }
  }
  return out;
}

/** after − before, per key; a process that exited in between is left out (its CPU is unknown). */
export function cpuBetween(before: CpuSample, after: CpuSample): CpuSample {
  const out: CpuSample = {};
  for (const [k, v] of Object.entries(after)) out[k] = Math.max(0, v - (before[k] ?? 0));
  return out;
}

/** The same, per page. */
export function perPage(cpu: CpuSample, pages: number): CpuSample {
  return Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, pages ? v / pages : NaN]));
}

/**
 * All of Chromium's CPU in a sample: every process kind summed, the per-thread keys (extension and
 * browser process) left out (they split their process's figure, already counted).
 */
export function allChromium(cpu: CpuSample): number {
  return Object.entries(cpu)
    .filter(([k]) => !k.includes('thread:'))
    .reduce((n, [, v]) => n + v, 0);
}
