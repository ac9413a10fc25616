// Worker threads do not inherit tsx's loader; this plain entry loads the TypeScript worker through tsx's API.
import { tsImport } from 'tsx/esm/api';
await tsImport('./content-worker.ts', import.meta.url);
