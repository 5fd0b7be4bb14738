import { describe, expect, it } from 'vitest';
import { formatBytes, plural } from '@/lib/format';

describe('one size and plural formatter for the panel and for reasons', () => {
  it('reads sizes in binary units, dropping a decimal that says nothing', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(14.2 * 1024)).toBe('14.2 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatBytes(1.25 * 1024 * 1024)).toBe('1.3 MB');
    expect(formatBytes(1023 * 1024 * 1024)).toBe('1023 MB');
    expect(formatBytes(75_048 * 1024 * 1024)).toBe('73.3 GB');
    expect(formatBytes(undefined)).toBe('');
  });

  it('counts with thousands separators and irregular plurals', () => {
    expect(plural(1, 'page')).toBe('1 page');
    expect(plural(1204, 'page')).toBe('1,204 pages');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
  });
});
