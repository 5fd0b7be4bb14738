import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazyListeners } from '../../scripts/linkedom-lazy-listeners';

const require = createRequire(import.meta.url);
// The module file itself (the package's exports map does not list it).
const cjsPath = join(require.resolve('linkedom/package.json').replace(/package\.json$/, ''), 'cjs/interface/event-target.js');

describe('the linkedom lazy-listeners patch', () => {
  it('applies to the pinned linkedom and keeps event listeners working', () => {
    const patched = lazyListeners(readFileSync(cjsPath, 'utf8'));
    expect(patched).not.toContain('wm.set(this, new Map);\n  }');
    const file = join(mkdtempSync(join(tmpdir(), 'linkedom-patch-')), 'event-target.cjs');
    writeFileSync(file, patched);
    const { EventTarget: DOMEventTarget } = require(file) as { EventTarget: new () => { addEventListener(t: string, f: (e: unknown) => void): void; removeEventListener(t: string, f: unknown): void; dispatchEvent(e: unknown): boolean } };
    const target = new DOMEventTarget();
    const seen: string[] = [];
    const listener = (e: unknown) => seen.push((e as { type: string }).type);
    // No listener yet: removing and dispatching must not throw.
    target.removeEventListener('ping', listener);
    const event = () => ({ type: 'ping', bubbles: false, _path: [] as unknown[], CAPTURING_PHASE: 1, AT_TARGET: 2, BUBBLING_PHASE: 3, eventPhase: 0 });
    target.dispatchEvent(event());
    target.addEventListener('ping', listener);
    target.dispatchEvent(event());
    target.removeEventListener('ping', listener);
    target.dispatchEvent(event());
    expect(seen).toEqual(['ping']);
  });

  it('refuses code it was not written for, rather than silently doing nothing', () => {
    expect(() => lazyListeners('class X {}')).toThrow(/linkedom changed/);
  });
});
