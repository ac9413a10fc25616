import { describe, expect, it } from 'vitest';
import { parseAuthority } from '../src/egress-gate.ts';

// The gate on a port, between Node's HTTP client and fixture sites: egress-gate.e2e.test.ts.
describe('egress gate', () => {
  it('parses CONNECT authorities strictly', () => {
    expect(parseAuthority('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    expect(parseAuthority('[::1]:8443')).toEqual({ host: '[::1]', port: 8443 });
    for (const bad of ['example.com', 'example.com:0', 'example.com:70000', 'user@example.com:443', 'a b:80', '::1:443']) {
      expect(parseAuthority(bad), bad).toBeNull();
    }
  });
});
