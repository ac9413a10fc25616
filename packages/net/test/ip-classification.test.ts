import { describe, expect, it } from 'vitest';
import { classifyIp, embeddedIpv4, parseIp } from '../src/index.ts';

describe('classifyIp', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456::1', 'unique_local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.192', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378::1', 'reserved'],
    ['4000::1', 'reserved'],
  ])('%s is %s', (ip, category) => {
    expect(classifyIp(ip)).toBe(category);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:0:a00:1', 'private'],
    ['::10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:7f00:1::1', 'loopback'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
  ])('judges %s by its embedded IPv4 (%s)', (ip, category) => {
    expect(classifyIp(ip)).toBe(category);
  });

  it('accepts every inet_aton spelling of an IPv4 address', () => {
    for (const s of ['127.1', '2130706433', '017700000001', '0x7f000001', '0x7f.0.0.1']) {
      expect(classifyIp(s)).toBe('loopback');
    }
  });

  it('accepts brackets and zone ids on IPv6', () => {
    expect(classifyIp('[::1]')).toBe('loopback');
    expect(classifyIp('fe80::1%eth0')).toBe('link_local');
  });

  it('throws a TypeError for a non-IP', () => {
    expect(() => classifyIp('example.com')).toThrow(TypeError);
    expect(() => parseIp('')).toThrow(TypeError);
  });

  it('extracts no IPv4 from plain IPv6 or IPv4', () => {
    expect(embeddedIpv4(parseIp('2606:4700::1111'))).toBeNull();
    expect(embeddedIpv4(parseIp('10.0.0.1'))).toBeNull();
    expect(embeddedIpv4(parseIp('::ffff:10.0.0.1'))?.toString()).toBe('10.0.0.1');
  });
});
