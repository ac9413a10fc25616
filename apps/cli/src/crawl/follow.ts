import type { CrawlJob, TrawlClient } from '@trawl/client';
import type { CommandContext } from '../command-spec.ts';
import { exitCode } from '../exit-codes.ts';
import { safeJson, safeText, type LineSink } from '../output.ts';
import { crawlDisplay } from './display.ts';
import { askYesNo, watchInterrupts } from './interrupt.ts';
import { formatDuration, TERMINAL_STATUSES, type CrawlView } from './progress.ts';

const POLL_MS = 500;

const again = (id: string) => `trawl resume ${id}`;

/**
 * Follows a crawl until it ends: its live events (GET /v1/crawl/{id}/events: counters, pages/s, ETA, status, end;
 * reconnected by the client with Last-Event-ID) drive the progress display on stderr while every item is written
 * once, as one JSON line, to `out` (following the items cursor during the crawl and to its end). Ctrl-C stops
 * following: on a terminal it asks whether to pause the crawl, elsewhere it leaves it running (exit 130).
 */
export async function followCrawl(ctx: CommandContext, client: TrawlClient, crawl: CrawlJob, out: LineSink): Promise<number> {
  const id = crawl.id;
  const display = crawlDisplay(ctx.stderr);
  const abort = new AbortController();
  const interrupts = watchInterrupts(exitCode('interrupted'));
  let written = 0;
  const view: CrawlView = { id, status: crawl.status, progress: crawl.progress, rate: null, etaS: null };

  const statusLoop = async () => {
    display.update(view);
    if (TERMINAL_STATUSES.has(view.status)) return;
    for await (const e of client.crawlEvents(id, { signal: abort.signal })) {
      view.status = e.data.status;
      if (e.event !== 'status') view.progress = e.data.progress;
      if (e.event === 'progress') {
        view.rate = e.data.pages_per_second;
        view.etaS = e.data.eta_s;
      }
      display.update(view);
    }
  };
  const itemsLoop = async () => {
    for await (const item of client.crawlItems(id, { signal: abort.signal, pollIntervalMs: POLL_MS })) {
      await out.write(safeJson(item));
      written++;
    }
  };
  const loops = [statusLoop(), itemsLoop()];
  const stopLoops = async () => {
    abort.abort();
    await Promise.allSettled(loops);
    display.stop();
    await out.close();
  };

  try {
    const ended = await Promise.race([Promise.all(loops).then(() => true), interrupts.interrupted.then(() => false)]);
    if (!ended) {
      await stopLoops();
      return await interrupted(ctx, client, id, interrupts);
    }
  } catch (err) {
    await stopLoops();
    ctx.stderr.write(`${id} may still be running; follow it again with: ${again(id)}\n`);
    throw err;
  } finally {
    interrupts.dispose();
  }

  display.stop();
  await out.close();
  // The summary reads the crawl once more: its failure, and counters that include the end.
  const last = await client.getCrawl(id);
  const s = display.stats({ ...view, status: last.status, progress: last.progress });
  ctx.stderr.write(
    `${id} ${last.status}: ${s.delivered} delivered, ${s.failed} failed of ${s.admitted} admitted in ${formatDuration(s.elapsedS)}; ${written} items written to ${out.name}\n`,
  );
  if (last.status === 'completed') return exitCode('ok');
  if (last.failure) ctx.stderr.write(`${id} ${last.status}: ${safeText(`${last.failure.code}: ${last.failure.message}`)}\n`);
  return exitCode('job_failed');
}

async function interrupted(ctx: CommandContext, client: TrawlClient, id: string, interrupts: ReturnType<typeof watchInterrupts>): Promise<number> {
  if (ctx.stdin.isTTY && ctx.stderr.isTTY) {
    ctx.stderr.write('\n');
    if (await askYesNo(ctx.stdin, ctx.stderr, `Pause the crawl ${id}? [y/N] `, interrupts)) {
      const paused = await client.pauseCrawl(id);
      ctx.stderr.write(`${id} ${paused.status}. Resume it with: ${again(id)}\n`);
    } else {
      ctx.stderr.write(`${id} is still running. Follow it again with: ${again(id)}\n`);
    }
  } else {
    ctx.stderr.write(`interrupted: ${id} is still running; follow it again with: ${again(id)}\n`);
  }
  return exitCode('interrupted');
}
