import { parseArgs } from 'node:util';
import { normalizeContent } from '@trawl/content';
import { createLightEngine } from '@trawl/light-engine';
import { HostResolverRules, SsrfGuard } from '@trawl/net';
import { measure } from './measure.ts';

/**
 * Our Fetch pipeline without the gateway (light engine + content normalization in one thread), measured in a
 * process of its own so that neither the benchmark's HTTP client nor the gateway shares its heap or event loop.
 * Prints one JSON line per concurrency level.
 */
const { values } = parseArgs({
  options: { url: { type: 'string' }, concurrency: { type: 'string' }, seconds: { type: 'string' } },
  strict: true,
});
const guard = new SsrfGuard({ allowPrivate: ['127.0.0.1/32'], rules: HostResolverRules.parse('') });
const light = createLightEngine({ guard });
const url = values.url!;
const pipeline = async () => {
  const r = await light.fetch({ url, deadline: Date.now() + 30_000 });
  if (!r.ok) throw new Error('pipeline fetch failed');
  normalizeContent({ body: r.body, contentType: r.contentType, url: r.finalUrl });
};
for (const c of values.concurrency!.split(',').map(Number)) {
  const m = await measure('pipeline', c, Number(values.seconds), pipeline);
  process.stdout.write(`${JSON.stringify(m)}\n`);
}
await light.close();
