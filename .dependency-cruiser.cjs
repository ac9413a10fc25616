// Package boundaries, checked by `npm run lint:deps` (part of `npm test`). Layers, bottom-up: a package imports
// only packages of a lower rank, only through their public src/index.ts, and never an app. docs/architecture.md
// explains the layers; a new package gets a rank here.
const RANKS = {
  contract: 0, config: 0, net: 0, redis: 0, client: 0, kv: 0, lru: 0,
  content: 1, 'light-engine': 1, store: 1, frontier: 1, metrics: 1, webhooks: 1,
  browser: 2, extraction: 2,
  scrape: 3,
  runs: 4, trends: 4,
  crawler: 5,
  process: 6, admin: 6,
};
const names = (pred) => Object.keys(RANKS).filter(pred).join('|');

const layerRules = Object.entries(RANKS).map(([pkg, rank]) => {
  const notBelow = names((other) => other !== pkg && RANKS[other] >= rank);
  return {
    name: `layer-${pkg}`,
    comment: `${pkg} (rank ${rank}) may import only packages of a lower rank`,
    severity: 'error',
    from: { path: `^packages/${pkg}/` },
    to: { path: `^packages/(${notBelow})/` },
  };
});

// Third-party libraries behind one adapter module each, in packages and apps (docs/architecture.md names them);
// tests may use them.
const ADAPTERS = [
  ['@crawlee', '^packages/crawler/src/worker/crawlee-adapter\\.ts$'],
  ['playwright-core', '^packages/browser/src/playwright-adapter\\.ts$'],
  ['redis', '^packages/redis/src/(client|unavailable)\\.ts$'],
  ['turndown', '^packages/content/src/markdown/(markdown|block-rules|inline-rules|table-rules|nodes)\\.ts$'], // turndown and our rules for it
  ['(htmlparser2|domhandler)', '^packages/content/src/html-parser\\.ts$'],
  ['iconv-lite', '^packages/content/src/decode/iconv\\.ts$'],
  ['got-scraping', '^packages/light-engine/src/got-scraping-client\\.ts$'],
  ['(css-select|css-what)', '^packages/extraction/src/css-engine\\.ts$'],
  ['prom-client', '^packages/metrics/src/prometheus\\.ts$'],
  ['lmdb', '^packages/kv/src/lmdb-kv\\.ts$'],
  ['msgpackr', '^packages/kv/src/memory-kv\\.ts$'], // the encoder lmdb-js uses, for the in-memory Kv's values
  ['@trpc/server', '^(packages/admin/src/trpc|apps/gateway/src/routes/admin-trpc)\\.ts$'], // the gateway: only the Fastify adapter
  ['@trpc/client', '^packages/admin/src/client\\.ts$'],
  ['@fastify/swagger-ui', '^apps/gateway/src/routes/reference-route\\.ts$'],
  ['(pino|pino-pretty)', '^packages/process/src/logger\\.ts$'],
  ['openapi-fetch', '^packages/client/src/openapi-fetch-adapter\\.ts$'],
  ['commander', '^apps/cli/src/commander-adapter\\.ts$'],
  ['cli-progress', '^apps/cli/src/progress-bar\\.ts$'],
  ['sitemap', '^packages/crawler/src/worker/sitemap-parser\\.ts$'],
];
const adapterRules = ADAPTERS.map(([lib, adapter]) => ({
  name: `adapter-${lib.replace(/\W/g, '')}`,
  comment: `only ${adapter} imports ${lib}`,
  severity: 'error',
  from: { path: '^(packages|apps)/[^/]+/src/', pathNot: adapter },
  to: { path: `node_modules/${lib}/` },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    ...adapterRules,
    {
      name: 'no-app-from-packages',
      comment: 'packages never import an app',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'public-index-only',
      comment: "another package is used through its src/index.ts, never its internals",
      severity: 'error',
      from: { path: '^(packages|apps)/([^/]+)/src/' },
      // One second entry: @trawl/admin/client, the typed admin client without the router behind it (the CLI starts
      // in 0.2 s instead of 1.2 s, measured, not loading the crawler and stores).
      to: { path: '^packages/[^/]+/src/', pathNot: ['^packages/$2/', '^packages/[^/]+/src/index\\.ts$', '^packages/admin/src/client\\.ts$'] },
    },
    {
      name: 'test-support-by-name',
      comment: 'test helpers are imported as @trawl/test-support/..., never by a relative path into test/support',
      severity: 'error',
      from: { pathNot: '^test/support/' },
      to: { path: '^test/support/', dependencyTypesNot: ['aliased-workspace'] },
    },
    {
      name: 'no-test-support-in-src',
      comment: 'src/ never imports the test helpers (@trawl/test-support)',
      severity: 'error',
      from: { path: '^(packages|apps)/[^/]+/src/' },
      to: { path: '^test/support/' },
    },
    {
      name: 'test-support-public-index-only',
      comment: 'the test helpers use a package through its src/index.ts, like any other package',
      severity: 'error',
      from: { path: '^test/support/' },
      to: { path: '^packages/[^/]+/src/', pathNot: '^packages/[^/]+/src/index\\.ts$' },
    },
    {
      name: 'no-package-cycles',
      comment: 'no import cycle that crosses packages',
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { circular: true, path: '^packages/', pathNot: '^packages/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.d\\.ts$'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'], extensions: ['.ts', '.mjs', '.js'] },
    combinedDependencies: true,
    // TypeScript 7 has no JS API for dependency-cruiser to parse with; swc parses TS as written.
    parser: 'swc',
  },
};
