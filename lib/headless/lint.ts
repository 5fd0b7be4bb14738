/**
 * An llms.txt linted for a site's CI: the validator the Output tab and the file viewer show
 * (lib/generate/validate.ts, on the llms.txt parser), plus the file's size against what an agent
 * reads whole. Errors are what makes a file unusable — the reference parser fails on it, it has no
 * title, or agents' tools cut it; warnings lose or misread something; infos are advice.
 */
import { countTokens } from '../tokens';
import { validateLlmsTxt, type Finding } from '../generate/validate';
import { HARD_LIMIT_CHARS, RECOMMENDED_CHARS } from '../check/budget';

export { HARD_LIMIT_CHARS, RECOMMENDED_CHARS };

export interface LintReport {
  url: string;
  chars: number;
  tokens: number;
  findings: Finding[];
  errors: number;
  warnings: number;
  infos: number;
}

const n = (v: number) => v.toLocaleString('en');

/** The size finding for a file of `chars` characters, if it is over the budget. */
export function sizeFinding(chars: number): Finding | null {
  if (chars > HARD_LIMIT_CHARS) {
    return { line: 1, severity: 'error', code: 'over-hard-limit', message: `The file has ${n(chars)} characters; agents' tools cut files near ${n(HARD_LIMIT_CHARS)}, so its end is lost. Split it into nested llms.txt files per section (scout generate does) or trim it below ${n(RECOMMENDED_CHARS)}.` };
  }
  if (chars > RECOMMENDED_CHARS) {
    return { line: 1, severity: 'warning', code: 'over-budget', message: `The file has ${n(chars)} characters, over the ${n(RECOMMENDED_CHARS)} an agent should have to read whole; consider nested llms.txt files per section.` };
  }
  return null;
}

/** Lints llms.txt text as published at `url` (relative links resolve against it). */
export function lintLlmsTxt(text: string, url: string): LintReport {
  const chars = text.replace(/^\uFEFF/, '').length;
  const size = sizeFinding(chars);
  const findings = validateLlmsTxt(text, url);
  if (size) findings.unshift(size);
  const count = (severity: Finding['severity']) => findings.filter((f) => f.severity === severity).length;
  return { url, chars, tokens: countTokens(text), findings, errors: count('error'), warnings: count('warning'), infos: count('info') };
}
