#!/usr/bin/env node
// The `scout` bin (package.json): loads tsx from this package's own dependencies, then the
// TypeScript CLI, so `npx scout …` / `npm link` work from any folder without a build step.
import { register } from 'tsx/esm/api';

register();
await import('./scout.ts');
