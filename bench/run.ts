import { loadavg } from 'node:os';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { formatTable, type ScenarioResult } from './support/table.ts';

/** `npm run bench -- <scenario>`: runs bench/<scenario>.bench.ts, prints its table, writes bench/results/<scenario>.md. */
const name = process.argv[2];
const here = new URL('./', import.meta.url);
const scenarios = readdirSync(here).filter((f) => f.endsWith('.bench.ts')).map((f) => f.replace(/\.bench\.ts$/, ''));
if (!name || !scenarios.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <scenario>\nscenarios: ${scenarios.join(', ')}\n`);
  process.exit(2);
}
const load = loadavg()[0];
if (load > 1.5) process.stderr.write(`warning: load average ${load.toFixed(2)} is above 1.5; figures will be noisy\n`);
const mod = (await import(new URL(`./${name}.bench.ts`, here).href)) as { default: () => Promise<ScenarioResult> };
const result = await mod.default();
const text = formatTable(result, { load, node: process.version, at: new Date().toISOString() });
process.stdout.write(`${text}\n`);
mkdirSync(new URL('./results/', here), { recursive: true });
writeFileSync(new URL(`./results/${name}.md`, here), `${text}\n`);
process.exit(0);
