import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/store/db';
import { setUpCommands } from '@/entrypoints/background/commands';
import { command, fakeExtension } from './fake-extension';

afterEach(async () => {
  await db.sites.clear();
});

describe('a panel command whose handler throws', () => {
  it('answers the failure in words instead of failing the message', async () => {
    fakeExtension();
    setUpCommands();
    // recordSiteOpened cannot make a site of this: it throws, as a refused database write would.
    const answer = await command('openSite', { url: 'not a page address' });
    expect(answer).toMatchObject({ error: expect.stringMatching(/^Scout could not do that: .*Invalid URL/) });
    // The worker carries on answering.
    expect(await command('openSite', { url: 'https://docs.example.test/guide/' })).toEqual({ origin: 'https://docs.example.test' });
  });
});
