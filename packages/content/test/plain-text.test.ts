import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';

const URL = 'https://files.example.com/notes.txt';

describe('text and JSON bodies', () => {
  it('passes prose from text/plain through as Markdown, with no title, HTML or links', () => {
    const text = 'Tide notes\r\n\r\nSpring tides follow the full moon.\r\nNeap tides follow the quarter moons.\r\n';
    const result = normalizeContent({ body: Buffer.from(text), contentType: 'text/plain; charset=utf-8', url: URL });
    expect(result.markdown).toBe('Tide notes\n\nSpring tides follow the full moon.\nNeap tides follow the quarter moons.');
    expect(result.title).toBe('');
    expect(result.html).toBeNull();
    expect(result.links).toEqual([]);
    expect(result.metadata).toEqual({ title: null, description: null, language: null, canonical_url: null, open_graph: {}, twitter: {} });
  });

  it('fences text that looks like code', () => {
    const code = 'function tide(h) {\n  if (h > 4) {\n    return "high";\n  }\n  return "low";\n}\n';
    const { markdown } = normalizeContent({ body: Buffer.from(code), contentType: 'text/plain', url: URL });
    expect(markdown).toBe('```\nfunction tide(h) {\n  if (h > 4) {\n    return "high";\n  }\n  return "low";\n}\n```');
  });

  it('pretty-prints JSON into a json fence', () => {
    const result = normalizeContent({ body: Buffer.from('{"tide":"high","heights":[4.2,4.5]}'), contentType: 'application/json', url: URL });
    expect(result.markdown).toBe('```json\n{\n  "tide": "high",\n  "heights": [\n    4.2,\n    4.5\n  ]\n}\n```');
    expect(result.title).toBe('');
    expect(result.html).toBeNull();
  });

  it('fences invalid JSON as it came, and +json types count as JSON', () => {
    const { markdown } = normalizeContent({ body: Buffer.from('{"broken": '), contentType: 'application/problem+json', url: URL });
    expect(markdown).toBe('```json\n{"broken":\n```');
  });

  it('uses a longer fence when the JSON holds backticks', () => {
    const { markdown } = normalizeContent({ body: Buffer.from('{"md":"```js```"}'), contentType: 'application/json', url: URL });
    expect(markdown.startsWith('````json\n')).toBe(true);
    expect(markdown.endsWith('\n````')).toBe(true);
  });
});
