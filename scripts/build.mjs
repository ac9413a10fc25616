// Builds what `npm start`, `npm run worker` and `trawl` (bin/trawl.js) run: the gateway, worker and CLI entries,
// and the content thread's entry, with our own packages bundled into one ES module each (dist/gateway.mjs,
// dist/worker.mjs, dist/cli.mjs, dist/chunks/content-worker-*.mjs) and third-party packages left to node_modules. A
// process started from TypeScript through tsx spent about 1.5 s of its start loading some 800 modules through
// tsx's loader thread; the bundle starts in about a quarter of that (README "Start-up").
//
//   node scripts/build.mjs             build
//   node scripts/build.mjs --if-stale  build only when a source is newer than the bundles (what start does)
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLES = {
  gateway: { entry: 'apps/gateway/src/main.ts', out: 'dist/gateway.mjs' },
  worker: { entry: 'apps/worker/src/main.ts', out: 'dist/worker.mjs' },
  cli: { entry: 'apps/cli/src/main.ts', out: 'dist/cli.mjs' },
};
// A content thread's entry, spawned by content-lanes.ts. It gets a name of its own in every build, under chunks/
// (kept like them): a process started from an earlier build starts its threads from that build, whose messages it
// speaks. The bundles name it through TRAWL_CONTENT_WORKER_URL (define); unbundled, the lanes run it through tsx.
const CONTENT_WORKER = 'packages/scrape/src/content-worker.ts';
const SOURCES = ['packages', 'apps/gateway', 'apps/worker', 'apps/cli', 'package.json', 'scripts/build.mjs'];

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

const builtHere = () => existsSync(STAMP) && readFileSync(STAMP, 'utf8') === ROOT;
const builtAt = (b) => statSync(join(ROOT, b.out), { throwIfNoEntry: false })?.mtimeMs ?? 0;

export function stale() {
  if (!builtHere()) return true;
  const built = Math.min(...Object.values(BUNDLES).map(builtAt));
  return SOURCES.some((s) => newestSource(join(ROOT, s)) >= built);
}

// The files the CLI's bundle was built from, as the build found them (with their packages' package.json): `trawl`
// checks these few dozen at every run rather than walking every package, which took 12-60 ms of a `--help`.
const CLI_SOURCES = 'cli-sources.json';

/** Whether `trawl` (bin/trawl.js) must build first: the bundles are not this checkout's, or a CLI source changed. */
export function cliStale() {
  if (!builtHere()) return true;
  const built = builtAt(BUNDLES.cli);
  let sources;
  try {
    sources = JSON.parse(readFileSync(join(ROOT, 'dist', CLI_SOURCES), 'utf8'));
  } catch {
    return true; // built before this list existed
  }
  // A source gone (renamed, deleted) counts as changed.
  return sources.some((s) => (statSync(join(ROOT, s), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) >= built);
}

/** The CLI's sources from esbuild's metafile: the modules its entry reaches, statically or not. */
function cliSources(metafile) {
  const modules = new Set([BUNDLES.cli.entry]);
  for (const m of modules) for (const i of metafile.inputs[m]?.imports ?? []) if (!i.external) modules.add(i.path);
  const packages = [...modules].map((m) => /^(?:packages|apps)\/[^/]+\//.exec(m)?.[0]).filter(Boolean);
  return [...new Set([...modules, ...packages.map((p) => `${p}package.json`), 'package.json', 'scripts/build.mjs'])];
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
// Builds of this process under way: esbuild's service process is stopped when the last one ends.
let building = 0;

/** esbuild's options for one build into the staging directory `next`. */
function options(next, contentWorker, contentWorkerUrl) {
  return {
    entryPoints: {
      ...Object.fromEntries(Object.entries(BUNDLES).map(([name, b]) => [name, join(ROOT, b.entry)])),
      [`chunks/${contentWorker}`]: join(ROOT, CONTENT_WORKER),
    },
    define: { TRAWL_CONTENT_WORKER_URL: JSON.stringify(contentWorkerUrl) },
    // Paths in the metafile (cliSources) and in the bundles' comments relative to the checkout, wherever it runs.
    absWorkingDir: ROOT,
    metafile: true,
    outdir: next,
    outExtension: { '.js': '.mjs' },
    // Modules we load lazily (Crawlee's adapter, the CLI's API clients) stay separate chunks, loaded when asked
    // for: in one file their third-party imports would be hoisted to its top and loaded at start.
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
    banner: { js: '// Built by scripts/build.mjs (gateway, worker, CLI, content thread) from our TypeScript; do not edit.' },
  };
}

/** Builds into `dist` (the checkout's dist/ unless told otherwise; tests build elsewhere). */
export async function buildBundles(dist = join(ROOT, 'dist')) {
  const esbuild = await import('esbuild'); // only when building: a start with fresh bundles does not load it
  const n = ++builds;
  const next = `${dist}.next-${process.pid}-${n}`;
  const contentWorker = `content-worker-${Date.now().toString(36)}-${process.pid}-${n}`;
  building++;
  try {
    const contentWorkerUrl = pathToFileURL(join(resolve(dist), 'chunks', `${contentWorker}.mjs`)).href; // where it ends up
    const { metafile } = await esbuild.build(options(next, contentWorker, contentWorkerUrl));
    writeFileSync(join(next, CLI_SOURCES), JSON.stringify(cliSources(metafile), null, 1));
  } finally {
    // Its service process (~50 MB) would otherwise live as long as this one: a gateway that built at its start.
    if (--building === 0) await esbuild.stop();
  }
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
