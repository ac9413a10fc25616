// Builds what `npm start` and `npm run worker` run: the gateway and worker entries with our own packages bundled
// into one ES module each (dist/gateway.mjs, dist/worker.mjs) and third-party packages left to node_modules. A
// process started from TypeScript through tsx spent about 1.5 s of its start loading some 800 modules through
// tsx's loader thread; the bundle starts in about a quarter of that (README "Start-up").
//
//   node scripts/build.mjs             build
//   node scripts/build.mjs --if-stale  build only when a source is newer than the bundles (what start does)
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLES = {
  gateway: { entry: 'apps/gateway/src/main.ts', out: 'dist/gateway.mjs' },
  worker: { entry: 'apps/worker/src/main.ts', out: 'dist/worker.mjs' },
};
const SOURCES = ['packages', 'apps/gateway', 'apps/worker', 'package.json', 'scripts/build.mjs'];

/** Newest modification time of the files under the sources (node_modules and tests left out). */
function newestSource(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const e of readdirSync(path, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'test' || e.name.startsWith('.')) continue;
    newest = Math.max(newest, newestSource(join(path, e.name)));
  }
  return newest;
}

// The checkout a build was made in: its bundles name their modules' source files (see ownModuleUrls).
const STAMP = join(ROOT, 'dist', 'built-for.txt');

export function stale() {
  if (!existsSync(STAMP) || readFileSync(STAMP, 'utf8') !== ROOT) return true;
  const built = Math.min(...Object.values(BUNDLES).map((b) => statSync(join(ROOT, b.out), { throwIfNoEntry: false })?.mtimeMs ?? 0));
  return SOURCES.some((s) => newestSource(join(ROOT, s)) >= built);
}

// Our modules find their files (Lua scripts, page scripts, the content thread's entry) next to themselves through
// import.meta.url; in a bundle that would be the bundle's URL, so each module gets its own source file's URL. The
// bundle therefore runs from this checkout, where those files are (moved elsewhere, it is rebuilt: STAMP).
const ownModuleUrls = {
  name: 'own-module-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${'/'}node_modules${'/'}`)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};

// Third-party packages stay external (resolved from node_modules at run time, as they are today); ours are bundled.
const thirdPartyExternal = {
  name: 'third-party-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@trawl/') ? undefined : { path: args.path, external: true }));
  },
};

// A build replaces the entries but keeps earlier builds' chunks: a process started from an earlier build loads its
// lazy modules (Crawlee's adapter) later, from the chunk names it was built with, and a rebuild meanwhile (a test
// run beside `npm start`) must not take them away. Chunks are named by their content, so one already there is the
// same file. Unused chunks older than this go.
const CHUNK_KEEP_MS = 7 * 24 * 3600 * 1000;

// Builds started by this process so far: two at once in one process (the test of concurrent builds) each need a
// staging directory of their own, or one's clean-up removes the other's output under it.
let builds = 0;

/** Builds into `dist` (the checkout's dist/ unless told otherwise; tests build elsewhere). */
export async function buildBundles(dist = join(ROOT, 'dist')) {
  const { build } = await import('esbuild'); // only when building: a start with fresh bundles does not load it
  const next = `${dist}.next-${process.pid}-${++builds}`;
  await build({
    entryPoints: Object.fromEntries(Object.entries(BUNDLES).map(([name, b]) => [name, join(ROOT, b.entry)])),
    outdir: next,
    outExtension: { '.js': '.mjs' },
    // Modules we load lazily (Crawlee's adapter) stay separate chunks, loaded when asked for: in one file their
    // third-party imports would be hoisted to its top and loaded at start.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    plugins: [thirdPartyExternal, ownModuleUrls],
    logLevel: 'warning',
    banner: { js: '// Built by scripts/build.mjs from apps/gateway/src and apps/worker/src; do not edit.' },
  });
  const chunks = join(dist, 'chunks');
  mkdirSync(chunks, { recursive: true });
  // Chunks first, then each entry in one rename (the stamp last): a process starting meanwhile finds whole files
  // whose chunks are there, and two builds at once (gateway and worker started together) leave one whole build.
  const fresh = new Set(readdirSync(join(next, 'chunks')));
  for (const name of fresh) if (!existsSync(join(chunks, name))) renameSync(join(next, 'chunks', name), join(chunks, name));
  for (const name of readdirSync(next)) if (name !== 'chunks') renameSync(join(next, name), join(dist, name));
  writeFileSync(join(dist, 'built-for.txt'), ROOT);
  rmSync(next, { recursive: true, force: true });
  const before = Date.now() - CHUNK_KEEP_MS;
  for (const name of readdirSync(chunks)) {
    if (!fresh.has(name) && statSync(join(chunks, name)).mtimeMs < before) rmSync(join(chunks, name), { force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!process.argv.includes('--if-stale') || stale()) await buildBundles();
}
