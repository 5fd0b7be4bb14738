import { describe, expect, it } from 'vitest';
import { cleanSummary } from '@/lib/describe/clean';

describe('cleanSummary: what models actually send back', () => {
  it.each([
    ['Explains how to install the CLI and configure a project.', 'Explains how to install the CLI and configure a project.'],
    ['  Explains   how to\n install the CLI.  ', 'Explains how to install the CLI.'],
    ['**Summary:** Explains how to install the CLI.', 'Explains how to install the CLI.'],
    ['Summary: "Explains how to install the CLI."', 'Explains how to install the CLI.'],
    ['"Summary: Explains how to install the CLI."', 'Explains how to install the CLI.'],
    ['“Explains how to install the CLI.”', 'Explains how to install the CLI.'],
    ['Description - Lists every configuration option.', 'Lists every configuration option.'],
    ['TL;DR: Lists every configuration option.', 'Lists every configuration option.'],
    ['```\nLists every configuration option.\n```', 'Lists every configuration option.'],
    ['```text\nLists every configuration option.\n```', 'Lists every configuration option.'],
    ['Sure! Here is a one-sentence description:\n\nLists every configuration option.', 'Lists every configuration option.'],
    ["Here's a short description of the page: Lists every configuration option.", 'Lists every configuration option.'],
    ['# Lists every *configuration* option for `fs.readFile`.', 'Lists every configuration option for fs.readFile.'],
    ['- Lists every [configuration option](https://x.test/c) in __one__ table.', 'Lists every configuration option in one table.'],
    ['> Lists every configuration option.', 'Lists every configuration option.'],
    ['This page explains how to install the CLI.', 'Explains how to install the CLI.'],
    ['The guide walks through a first deployment.', 'Walks through a first deployment.'],
    ['<think>The user wants one sentence. The page is about streams.</think>\nDescribes readable and writable streams.', 'Describes readable and writable streams.'],
    ['Describes streams. It also covers backpressure. And pipes.', 'Describes streams.'],
    ['Compares tools, e.g. Vite and webpack. Then benchmarks them.', 'Compares tools, e.g. Vite and webpack.'],
    ['Covers version 1.2 upgrades and the snake_case_names option.', 'Covers version 1.2 upgrades and the snake_case_names option.'],
    ['Introduces the API! Read on for details.', 'Introduces the API!'],
  ])('%j → %j', (raw, expected) => {
    expect(cleanSummary(raw)).toBe(expected);
  });

  it.each([
    [''],
    ['   \n\t '],
    ['```\n```'],
    ['I cannot summarize this page because it has no content.'],
    ["I'm sorry, but I can't help with that."],
    ['As an AI language model, I do not have access to the page.'],
    ['Sorry, the text appears to be empty.'],
    ['Unfortunately, there is not enough information.'],
    ['The provided text does not contain any documentation.'],
    ['N/A'],
    ['None.'],
    ['"..."'],
    ['**Summary:**'],
    ['42.'],
  ])('%j → null (nothing usable)', (raw) => {
    expect(cleanSummary(raw)).toBeNull();
  });

  it('cuts a long sentence at a word boundary and marks the cut with …', () => {
    const long = `Describes ${'very '.repeat(60)}long things.`;
    const out = cleanSummary(long, 80);
    expect(out).not.toBeNull();
    expect(out?.length).toBeLessThanOrEqual(80);
    expect(out?.endsWith('very…')).toBe(true);
    expect(out?.startsWith('Describes very very')).toBe(true);
  });

  it('keeps the default limit at 200 characters', () => {
    const out = cleanSummary(`Lists ${'option '.repeat(100)}values.`);
    expect(out?.length).toBeLessThanOrEqual(200);
    expect(out?.endsWith('option…')).toBe(true);
  });

  it('cuts inside one enormous word rather than returning almost nothing', () => {
    const out = cleanSummary(`Covers ${'x'.repeat(500)}`, 50);
    expect(out?.length).toBe(50);
    expect(out?.endsWith('…')).toBe(true);
  });
});
