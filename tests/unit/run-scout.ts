import { execFile } from 'node:child_process';

export interface ScoutRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `node --import tsx cli/scout.ts …` in the project folder: the CLI exactly as a user runs it.
 * `timeoutMs` ends a command that should have stopped by then (a server told to quit).
 */
export function scout(...args: string[]): Promise<ScoutRun> {
  return scoutWithin(0, ...args);
}

export function scoutWithin(timeoutMs: number, ...args: string[]): Promise<ScoutRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'cli/scout.ts', ...args], { cwd: process.cwd(), maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}
