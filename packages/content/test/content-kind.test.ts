import { describe, expect, it } from 'vitest';
import { UnsupportedContentTypeError, contentKindOf, normalizeContent } from '../src/index.ts';

const HTML = Buffer.from('<!DOCTYPE html><html><body><p>Hello</p></body></html>');

describe('contentKindOf', () => {
  it('goes by the Content-Type header when there is one', () => {
    expect(contentKindOf('text/html; charset=utf-8', Buffer.from('{}'))).toBe('html');
    expect(contentKindOf('application/xhtml+xml', HTML)).toBe('html');
    expect(contentKindOf('Application/JSON', HTML)).toBe('json');
    expect(contentKindOf('application/ld+json', HTML)).toBe('json');
    expect(contentKindOf('text/plain', HTML)).toBe('text');
    expect(contentKindOf('text/markdown', HTML)).toBe('text');
    expect(contentKindOf('image/png', HTML)).toBeNull();
    expect(contentKindOf('application/pdf', HTML)).toBeNull();
    expect(contentKindOf('application/octet-stream', HTML)).toBeNull();
  });

  it('sniffs the body only when the header is absent', () => {
    expect(contentKindOf(null, HTML)).toBe('html');
    expect(contentKindOf(null, Buffer.from('  \n<div>fragment</div>'))).toBe('html');
    expect(contentKindOf(null, Buffer.from('{"a": [1, 2]}'))).toBe('json');
    expect(contentKindOf(null, Buffer.from('just some words'))).toBe('text');
    expect(contentKindOf(null, Buffer.from('%PDF-1.7 binary'))).toBeNull();
    expect(contentKindOf(null, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBeNull();
    expect(contentKindOf(null, Buffer.from([0x00, 0x01, 0x02, 0x03, 0x41]))).toBeNull();
  });
});

describe('unsupported content', () => {
  it('throws UnsupportedContentTypeError carrying the content type', () => {
    for (const contentType of ['image/jpeg', 'application/pdf', 'application/octet-stream', 'video/mp4']) {
      let caught: unknown;
      try {
        normalizeContent({ body: Buffer.from([0xff, 0xd8, 0xff, 0xe0]), contentType, url: 'https://example.com/x' });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UnsupportedContentTypeError);
      expect((caught as UnsupportedContentTypeError).contentType).toBe(contentType);
    }
  });

  it('throws for a binary body without a Content-Type header', () => {
    expect(() => normalizeContent({ body: Buffer.from('%PDF-1.4\n%âãÏÓ'), contentType: null, url: 'https://example.com/x' })).toThrow(UnsupportedContentTypeError);
  });
});
