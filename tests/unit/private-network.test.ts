import { describe, expect, it } from 'vitest';
import { credentialsFor } from '@/lib/url/credentials';
import { createNetworkGuard, privateHostReason } from '@/lib/url/private-network';
import { createScope } from '@/lib/url/scope';

describe('privateHostReason', () => {
  it.each([
    ['127.0.0.1', /^A loopback address \(this computer\) \(127\.0\.0\.1\): Scout never fetches these from a public site$/],
    ['127.255.255.254', /loopback/],
    ['10.0.0.1', /private network/],
    ['10.255.255.255', /private network/],
    ['172.16.0.0', /private network/],
    ['172.31.255.255', /private network/],
    ['192.168.1.1', /^A private network address \(192\.168\.1\.1\): Scout never fetches these from a public site$/],
    ['169.254.169.254', /link-local/], // the cloud metadata address
    ['0.0.0.0', /unspecified/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.255', /carrier-grade NAT/],
  ])('refuses the IPv4 address %s', (host, words) => {
    expect(privateHostReason(host)).toMatch(words);
  });

  it.each(['172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '11.0.0.0', '9.255.255.255', '100.63.255.255', '100.128.0.0', '169.253.255.255', '1.1.1.1', '128.0.0.1'])(
    'lets the public IPv4 address %s through',
    (host) => expect(privateHostReason(host)).toBeNull(),
  );

  it.each([
    ['::1', /loopback/],
    ['[::1]', /loopback address \(this computer\) \(\[::1\]\)/],
    ['::', /unspecified/],
    ['fc00::1', /private network/],
    ['fdff:ffff::1', /private network/],
    ['fe80::1', /link-local/],
    ['febf::1', /link-local/],
    ['::ffff:192.168.1.1', /private network/],
    ['[::ffff:c0a8:101]', /private network address \(\[::ffff:c0a8:101\]\)/],
    ['::ffff:7f00:1', /loopback/],
    ['64:ff9b::a00:1', /private network/],
  ])('refuses the IPv6 address %s', (host, words) => {
    expect(privateHostReason(host)).toMatch(words);
  });

  it.each(['2001:4860:4860::8888', 'fbff::1', 'fe00::1', '::ffff:8.8.8.8', '[2606:4700::1111]'])('lets the public IPv6 address %s through', (host) => {
    expect(privateHostReason(host)).toBeNull();
  });

  it('sees through other spellings of an address, as the URL parser reads them', () => {
    expect(privateHostReason('0x7f.1')).toMatch(/loopback/);
    expect(privateHostReason('2130706433')).toMatch(/loopback/);
    expect(privateHostReason('0300.0250.1.1')).toMatch(/private network address \(192\.168\.1\.1\)/);
    expect(privateHostReason(new URL('http://[::ffff:127.0.0.1]/').hostname)).toMatch(/loopback/);
  });

  it.each([
    ['localhost', /^This computer \(localhost\)/],
    ['LOCALHOST.', /This computer/],
    ['app.localhost', /This computer/],
    ['intranet', /^A local network name \(intranet\)/],
    ['router.local', /local network name/],
    ['wiki.corp.internal', /local network name/],
    ['nas.lan', /local network name/],
    ['printer.home.arpa', /local network name/],
  ])('refuses the local name %s', (host, words) => {
    expect(privateHostReason(host)).toMatch(words);
  });

  it.each(['docs.example.com', 'docs.public.test', 'localhost.example.com', 'local.example.com', 'example.localdev.com', 'lan.example.org'])('lets the public name %s through', (host) => {
    expect(privateHostReason(host)).toBeNull();
  });
});

describe('createNetworkGuard', () => {
  it('refuses every private target from a public start', () => {
    const guard = createNetworkGuard('https://docs.example.com/guide/');
    expect(guard('https://docs.example.com/api')).toBeNull();
    expect(guard('https://other.example.org/')).toBeNull(); // another site is the scope's business, not the guard's
    for (const url of ['http://localhost:8080/', 'http://127.0.0.1/', 'http://[::1]/', 'http://192.168.1.1/', 'http://router.local/', 'http://[::ffff:c0a8:101]/']) {
      expect(guard(url), url).toMatch(/Scout never fetches these from a public site$/);
    }
  });

  it('lets a private start keep to its own host (any port), and to no other private host', () => {
    const guard = createNetworkGuard('http://wiki.corp.internal/docs/');
    expect(guard('http://wiki.corp.internal/docs/page')).toBeNull();
    expect(guard('http://WIKI.corp.internal:8443/docs/page')).toBeNull();
    expect(guard('http://jira.corp.internal/')).toMatch(/local network name \(jira\.corp\.internal\)/);
    expect(guard('http://192.168.1.1/')).toMatch(/private network/);
    expect(guard('http://localhost/')).toMatch(/This computer/);

    const local = createNetworkGuard('http://127.0.0.1:3000/');
    expect(local('http://127.0.0.1:3000/a')).toBeNull();
    expect(local('http://localhost:3000/a')).toMatch(/This computer/); // a different name: the guard judges names
    expect(local('http://10.0.0.2/')).toMatch(/private network/);

    const v6 = createNetworkGuard('http://[::1]:8080/');
    expect(v6('http://[0:0:0:0:0:0:0:1]:8080/x')).toBeNull();
  });

  it('is part of the crawl scope, ahead of the mode, so no include pattern can widen it', () => {
    const scope = createScope({ startUrl: 'http://docs.public.test/', mode: 'site', include: ['http://192.168.1.1/**'] });
    expect(scope('http://192.168.1.1/admin')).toBe('A private network address (192.168.1.1): Scout never fetches these from a public site');
    expect(scope('http://docs.public.test/a')).toBe('Not matched by any include pattern');
  });
});

describe('credentialsFor', () => {
  it('includes cookies on the crawled site only (its registrable domain)', () => {
    expect(credentialsFor('https://docs.example.com/a', 'https://docs.example.com/')).toBe('include');
    expect(credentialsFor('https://api.example.com/a.md', 'https://docs.example.com/')).toBe('include');
    expect(credentialsFor('https://raw.githubusercontent.com/x.md', 'https://docs.example.com/')).toBe('omit');
    expect(credentialsFor('https://alice.github.io/x', 'https://bob.github.io/')).toBe('omit');
    expect(credentialsFor('http://other.test/x.md', 'http://docs.public.test/')).toBe('omit');
    expect(credentialsFor('not a url', 'https://docs.example.com/')).toBe('omit');
  });
});
