import { describe, expect, it } from 'vitest';
import { blockedReason, isPublicAddress } from '#shared/net/address.ts';
import { BlockedTargetError, guardedLookup, resolvePublicTarget } from '#shared/net/guard.ts';

describe('blockedReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback (embedded IPv4)'],
    ['::ffff:a9fe:a9fe', 'link-local (embedded IPv4)'],
    ['::10.0.0.1', 'private (embedded IPv4)'],
    ['64:ff9b::7f00:1', 'loopback (embedded IPv4)'],
    ['2002:c0a8:0101::1', 'private (embedded IPv4)'],
    ['fe80::1%eth0', 'link-local'],
    ['fd12:3456::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['::ffff:0:127.0.0.1', 'loopback (embedded IPv4)'],
    ['::ffff:0:808:808', 'reserved'],
    ['::1:0:0:1', 'reserved'],
    ['4000::1', 'reserved'],
    ['e000::1', 'reserved'],
    ['127.0.0.1%lo', 'loopback'],
    // IPv4-compatible, not IPv4-mapped: a public IPv4 address here is still no real host.
    ['::8.8.8.8', 'reserved'],
    ['::0.0.0.1', 'loopback'],
  ])('refuses %s as %s', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    'accepts the public address %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('calls anything that is not an IP literal invalid', () => {
    expect(blockedReason('example.com')).toBe('invalid');
  });

  it.each(['2130706433', '0x7f.1', '0177.0.0.1', '127.1', '::ffff:0x7f.0.0.1', '::ffff:0177.0.0.1'])(
    'calls the non-decimal or short form %s invalid',
    (address) => {
      // The URL parser rewrites these before the guard sees them; a raw one is refused, not reinterpreted.
      expect(blockedReason(address)).toBe('invalid');
    },
  );
});

describe('resolvePublicTarget', () => {
  const policy = { loopbackPorts: [] };
  const resolver = (answers: Record<string, string[]>) => async (host: string) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a name when any of its addresses is internal', async () => {
    const resolve = resolver({ 'mixed.example': ['93.184.216.34', '10.0.0.5'] });
    await expect(resolvePublicTarget(new URL('http://mixed.example/'), policy, resolve)).rejects.toBeInstanceOf(BlockedTargetError);
  });

  it.each(['http://2130706433/', 'http://0x7f.1/', 'http://017700000001/', 'http://127.1/', 'http://[::ffff:7f00:1]/', 'http://0/'])(
    'refuses the numeric form %s once the URL parser has normalised it',
    async (raw) => {
      await expect(resolvePublicTarget(new URL(raw), policy, resolver({}))).rejects.toBeInstanceOf(BlockedTargetError);
    },
  );

  it('lets the test opt-in reach loopback on its listed port only', async () => {
    const testPolicy = { loopbackPorts: [4010] };
    await expect(resolvePublicTarget(new URL('http://127.0.0.1:4010/'), testPolicy)).resolves.toHaveLength(1);
    await expect(resolvePublicTarget(new URL('http://127.0.0.1:4011/'), testPolicy)).rejects.toBeInstanceOf(BlockedTargetError);
    await expect(resolvePublicTarget(new URL('http://10.0.0.1:4010/'), testPolicy)).rejects.toBeInstanceOf(BlockedTargetError);
  });

  it('refuses at connect time when the name now resolves to an internal address', async () => {
    const lookup = guardedLookup(80, policy, resolver({ 'rebind.example': ['169.254.169.254'] }));
    const error = await new Promise((resolve) => lookup('rebind.example', {}, (err) => resolve(err)));
    expect(error).toBeInstanceOf(BlockedTargetError);
  });
});
