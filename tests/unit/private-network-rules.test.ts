import { describe, expect, it } from 'vitest';
import { privateHostReason } from '@/lib/url/private-network';
import { allowOriginRule, allowRule, privateNetworkRules } from '@/lib/url/private-network-rules';
import { blockedByRules } from './rule-match';

// Hosts as a URL would carry them; the guard's own unit tests list the ranges in detail.
const PRIVATE = [
  '127.0.0.1', '127.1.2.3', '0x7f.1', '2130706433', '0.0.0.0', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
  '[::1]', '[::]', '[::ffff:127.0.0.1]', '[::ffff:c0a8:101]', '[fc00::1]', '[fd12:3456::1]', '[fe80::1]', '[febf::1]', '[64:ff9b::a00:1]',
  'localhost', 'localhost.', 'app.localhost', 'router.local', 'router.local.', 'ROUTER.LOCAL', 'wiki.internal', 'nas.lan', 'printer.home.arpa', 'box.localdomain', 'intranet', 'intranet.',
];
const PUBLIC = ['docs.python.org', 'docs.public.test', '172.15.0.1', '172.32.0.1', '192.169.0.1', '100.128.0.1', '8.8.8.8', '[2001:db8::1]', '[2606:4700::1111]', 'localhost.example.com', 'mylocal.com', 'lan.example.org', 'local.example.com', '10.example.com'];

describe('declarativeNetRequest rules for the private-network guard', () => {
  it.each(PRIVATE)('block %s, which the guard refuses too', (host) => {
    const url = `http://${host}:8080/landed?x=1`;
    expect(privateHostReason(new URL(url).hostname)).not.toBeNull();
    expect(blockedByRules(url)).toBe(true);
    expect(blockedByRules(`https://user:pw@${host}/`)).toBe(true);
  });

  it.each(PUBLIC)('let the public host %s through', (host) => {
    expect(blockedByRules(`https://${host}/docs/`)).toBe(false);
  });

  it('apply only to the extension’s own requests, and an intranet start gets one higher-priority allow rule', () => {
    const rules = privateNetworkRules('abcdefghijklmnop');
    expect(rules.every((r) => r.condition.initiatorDomains.length === 1 && r.condition.initiatorDomains[0] === 'abcdefghijklmnop')).toBe(true);
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    // RE2 (Chromium's regex engine) has no look-around or back-references; keep to the common subset.
    for (const r of rules) if (r.condition.regexFilter) expect(r.condition.regexFilter).not.toMatch(/\(\?[=!<]|\\\d/);
    const allow = allowRule(100, '[fd00::5]', 'abcdefghijklmnop');
    expect(allow).toMatchObject({ priority: 2, action: { type: 'allow' }, condition: { requestDomains: ['fd00::5'] } });
    expect(Math.min(...rules.map((r) => r.priority))).toBeLessThan(allow.priority);
  });
});

describe('the allow rule for a local LLM endpoint', () => {
  it('matches that exact origin and nothing else on the machine', () => {
    const rule = allowOriginRule(101, 'http://localhost:11434/v1', 'self');
    const re = new RegExp(rule.condition.regexFilter ?? '^$');
    expect(rule).toMatchObject({ priority: 2, action: { type: 'allow' }, condition: { initiatorDomains: ['self'] } });
    expect(re.test('http://localhost:11434/v1/chat/completions')).toBe(true);
    for (const other of ['http://localhost:8080/admin', 'http://localhost:114340/x', 'https://localhost:11434/v1', 'http://localhost.evil.test:11434/', 'http://127.0.0.1:11434/v1']) expect(re.test(other), other).toBe(false);
    expect(new RegExp(allowOriginRule(102, 'http://[::1]:8000', 'self').condition.regexFilter ?? '^$').test('http://[::1]:8000/v1/chat/completions')).toBe(true);
  });
});
