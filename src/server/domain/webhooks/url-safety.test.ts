import { describe, expect, it } from 'vitest';
import { checkResolvedAddresses, checkWebhookUrl, classifyAddress, isOwnSinkUrl } from './url-safety.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['169.254.10.1', 'link_local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:c0a8:0101::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2606:4700:4700::1111', 'public'],
    ['example.com', undefined],
  ])('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });
});

describe('checkWebhookUrl', () => {
  it.each(['https://example.com/h', 'https://8.8.8.8/h', 'http://localhost:3000/h', 'http://api.localhost/h', 'http://127.0.0.1/h', 'http://[::1]:8080/h', 'https://localhost/h', 'https://EXAMPLE.com./h'])(
    'accepts %s',
    (url) => expect(checkWebhookUrl(url).ok).toBe(true),
  );
  it.each(['http://example.com/h', 'http://8.8.8.8/h', 'https://10.0.0.1/h', 'https://0x0a000001/h', 'https://[fe80::1]/h', 'https://metadata.goog/h', 'https://printer.local/h'])(
    'refuses %s',
    (url) => expect(checkWebhookUrl(url).ok).toBe(false),
  );

  it('normalizes numeric hosts before classifying them', () => {
    expect(checkWebhookUrl('http://2130706433/h').ok).toBe(true); // 127.0.0.1
    expect(checkWebhookUrl('https://0xa9.0xfe.0xa9.0xfe/h').reason).toMatch(/metadata/);
  });
});

describe('checkResolvedAddresses', () => {
  it('accepts public answers for public names and loopback answers for loopback names only', () => {
    expect(checkResolvedAddresses('example.com', [{ address: '93.184.216.34', family: 4 }])).toBeNull();
    expect(checkResolvedAddresses('localhost', [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }])).toBeNull();
    expect(checkResolvedAddresses('example.com', [{ address: '127.0.0.1', family: 4 }])).toMatch(/loopback/);
    expect(checkResolvedAddresses('localhost', [{ address: '93.184.216.34', family: 4 }])).toMatch(/must resolve to loopback/);
    expect(checkResolvedAddresses('example.com', [{ address: '93.184.216.34', family: 4 }, { address: 'fd00::5', family: 6 }])).toMatch(/private/);
    expect(checkResolvedAddresses('example.com', [])).toMatch(/did not resolve/);
  });
});

describe('isOwnSinkUrl: the one URL at a refused address a delivery may reach', () => {
  const own = new Set([new URL('http://192.168.1.20:4010').origin]);
  it("passes a sink's path at an origin this process listens on, and nothing else", () => {
    expect(isOwnSinkUrl(new URL('http://192.168.1.20:4010/sinks/snk_AbC123'), own)).toBe(true);
    for (const other of [
      'http://192.168.1.20:4011/sinks/snk_AbC123', // another port of the same host
      'http://192.168.1.21:4010/sinks/snk_AbC123', // another host
      'https://192.168.1.20:4010/sinks/snk_AbC123', // another scheme
      'http://192.168.1.20:4010/sinks/snk_AbC123?x=1',
      'http://192.168.1.20:4010/sinks/snk_AbC123#x',
      'http://u:p@192.168.1.20:4010/sinks/snk_AbC123',
      'http://192.168.1.20:4010/sinks/snk_AbC123/more',
      'http://192.168.1.20:4010/sinks/../v1/keys',
      'http://192.168.1.20:4010/v1/keys',
      'http://169.254.169.254/sinks/snk_AbC123',
    ]) {
      expect(isOwnSinkUrl(new URL(other), own), other).toBe(false);
    }
    expect(isOwnSinkUrl(new URL('http://192.168.1.20:4010/sinks/snk_AbC123'), new Set())).toBe(false);
  });
});
