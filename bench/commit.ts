import { execSync } from 'node:child_process';

/**
 * The commit a benchmark measured, for its results file: what was measured is the working tree,
 * so it says so when the product's code differs from the commit. Empty outside a git checkout
 * (the figures still stand, without the commit).
 */
export function measuredCommit(): string {
  try {
    const commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
    return execSync('git status --porcelain -- lib', { encoding: 'utf8' }).trim() ? `${commit} + uncommitted lib/ changes` : commit;
  } catch {
    return '';
  }
}
