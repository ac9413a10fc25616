import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@trawl/config';
import { createLogger, prettyLines } from '@trawl/process';

/** A logger of `env` writing into an array of lines. */
function capture(env: Record<string, string>) {
  const lines: string[] = [];
  const log = createLogger(loadConfig(env), { name: 'trawl-test', stream: { write: (l: string) => void lines.push(l) } });
  return { log, lines };
}

describe('the process logger', () => {
  it('writes one JSON line per call with level, time, name and msg, at LOG_LEVEL and above', () => {
    const { log, lines } = capture({ LOG_LEVEL: 'warn' });
    log.info({ crawl_id: 'crawl_1' }, 'not at warn');
    log.warn({ crawl_id: 'crawl_1' }, 'at warn');
    log.error({ crawl_id: 'crawl_1' }, 'above warn');
    expect(lines).toHaveLength(2);
    const [warn, error] = lines.map((l) => JSON.parse(l));
    expect(warn).toMatchObject({ level: 40, time: expect.any(Number), name: 'trawl-test', pid: process.pid, crawl_id: 'crawl_1', msg: 'at warn' });
    expect(error).toMatchObject({ level: 50, msg: 'above warn' });
  });

  it('scrubs URLs and bearer tokens out of an error, keeping its name, code and our stack frames', () => {
    const { log, lines } = capture({});
    const err = Object.assign(new TypeError('could not load https://user:pw@secret.example/p?q=1 with Bearer abc.def'), { code: 'E_TEST', url: 'https://secret.example/' });
    log.error({ err }, 'background error');
    const line = JSON.parse(lines[0]);
    expect(line.err).toMatchObject({ name: 'TypeError', code: 'E_TEST', message: 'could not load <url> with Bearer <redacted>' });
    expect(line.err.stack).toMatch(/logger\.test\.ts/);
    expect(lines[0]).not.toMatch(/secret\.example|user:pw|abc\.def/);
    // A library's plain text logged as the err (Crawlee's lines) is scrubbed the same way.
    log.error({ err: 'Request failed: http://site.test/private?token=1' }, 'crawlee error');
    expect(JSON.parse(lines[1]).err).toEqual({ name: 'string', message: 'Request failed: <url>' });
  });

  it('LOG_PRETTY=1 writes human-readable lines; LOG_PRETTY=0 or unset JSON, unless stdout is a terminal', () => {
    const { log, lines } = capture({ LOG_PRETTY: '1' });
    log.info({ crawl_id: 'crawl_1' }, 'crawl completed');
    expect(lines).toHaveLength(1);
    expect(() => JSON.parse(lines[0])).toThrow();
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(trawl-test\/\d+\): crawl completed \{"crawl_id":"crawl_1"\}\n$/);
    const json = capture({ LOG_PRETTY: '0' });
    json.log.info({}, 'json');
    expect(JSON.parse(json.lines[0])).toMatchObject({ msg: 'json' });
    expect([prettyLines(undefined, true), prettyLines(undefined, false), prettyLines('0', true), prettyLines('1', false)]).toEqual([true, false, false, true]);
  });

  it('rejects a LOG_PRETTY or LOG_LEVEL it does not know, naming the variable', () => {
    expect(() => loadConfig({ LOG_PRETTY: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_PRETTY: 'yes' })).toThrow(/LOG_PRETTY/);
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL/);
  });
});
