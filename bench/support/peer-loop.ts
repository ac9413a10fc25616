import { cpuMsOf, peakRssMbOf } from './proc-stats.ts';

/**
 * The crawl loop of the bare peers: from the site's host roots, at concurrency 64, every same-host link once.
 * `visit` fetches a page and returns its hrefs; what it does with the page besides is the peer's own. Prints the
 * peer's figures (pages, wall, CPU, peak RSS) as one JSON line and exits.
 */
export async function runPeerLoop(port: number, hosts: number, visit: (url: string) => Promise<string[]>): Promise<never> {
  const seen = new Set<string>();
  const queue: string[] = [];
  for (let i = 1; i <= hosts; i++) {
    const u = `http://127.0.0.${i}:${port}/`;
    seen.add(u);
    queue.push(u);
  }
  let pages = 0;
  let active = 0;
  const cpu0 = cpuMsOf(process.pid);
  const t0 = performance.now();
  await new Promise<void>((done) => {
    const pump = () => {
      while (active < 64 && queue.length > 0) {
        const url = queue.shift()!;
        active += 1;
        visit(url)
          .then((hrefs) => {
            const base = new URL(url);
            for (const href of hrefs) {
              const next = new URL(href, base);
              next.hash = '';
              if (next.host === base.host && !seen.has(next.href)) {
                seen.add(next.href);
                queue.push(next.href);
              }
            }
            pages += 1;
          })
          .catch(() => undefined)
          .finally(() => {
            active -= 1;
            if (active === 0 && queue.length === 0) done();
            else pump();
          });
      }
    };
    pump();
  });
  const wallMs = performance.now() - t0;
  process.stdout.write(`${JSON.stringify({ pages, wallMs, cpuMs: cpuMsOf(process.pid) - cpu0, peakRssMb: peakRssMbOf(process.pid) })}\n`);
  process.exit(0);
}
