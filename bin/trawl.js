#!/usr/bin/env node
// `npx trawl` (the root package's bin): the CLI is TypeScript, run through tsx like every entry of this repository.
import { register } from 'tsx/esm/api';

register();
await import('../apps/cli/src/main.ts');
