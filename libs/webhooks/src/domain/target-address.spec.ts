import { AddressKind, classifyAddress, isAllowedAddress, parseIPv6 } from './target-address';

const cases: [string, AddressKind][] = [
  // IPv4: loopback, private, shared, link-local, multicast, unspecified, broadcast, reserved
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['127.1.2.3', 'loopback'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'shared'],
  ['100.127.255.255', 'shared'],
  ['169.254.169.254', 'link_local'],
  ['169.254.0.1', 'link_local'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.10', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['192.0.0.8', 'reserved'],
  // IPv4 neighbours of those ranges are public
  ['172.15.255.255', 'public'],
  ['172.32.0.0', 'public'],
  ['100.63.255.255', 'public'],
  ['100.128.0.0', 'public'],
  ['169.253.255.255', 'public'],
  ['192.167.255.255', 'public'],
  ['198.20.0.0', 'public'],
  ['223.255.255.255', 'public'],
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['93.184.216.34', 'public'],
  // IPv6
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::', 'unspecified'],
  ['[::1]', 'loopback'],
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['fe80::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['febf:ffff::1', 'link_local'],
  ['fec0::1', 'private'],
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['2001::1', 'reserved'],
  ['100::1', 'reserved'],
  ['3fff::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['2606:4700:4700::1111', 'public'],
  ['2a00:1450:4001:80b::200e', 'public'],
  // IPv4 inside IPv6: judged by the IPv4 address
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:169.254.169.254', 'link_local'],
  ['::ffff:a9fe:a9fe', 'link_local'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:8.8.8.8', 'public'],
  ['::127.0.0.1', 'loopback'],
  ['::ffff:0:127.0.0.1', 'loopback'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::8.8.8.8', 'public'],
  ['64:ff9b:1::1', 'private'],
  ['2002:7f00:1::', 'loopback'],
  ['2002:c0a8:101::1', 'private'],
  ['2002:808:808::1', 'public'],
  // not addresses
  ['localhost', 'invalid'],
  ['example.com', 'invalid'],
  ['256.0.0.1', 'invalid'],
  ['1.2.3', 'invalid'],
  ['1::2::3', 'invalid'],
  ['12345::1', 'invalid'],
  ['1:2:3:4:5:6:7:8:9', 'invalid'],
  ['', 'invalid'],
];

describe('classifyAddress (SSRF guard)', () => {
  it.each(cases)('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('allows only public addresses unless private targets are allowed; never multicast or broadcast', () => {
    for (const [address, kind] of cases) {
      expect(isAllowedAddress(classifyAddress(address), false)).toBe(kind === 'public');
    }
    for (const kind of ['loopback', 'private', 'shared', 'link_local', 'unspecified', 'reserved'] as const) expect(isAllowedAddress(kind, true)).toBe(true);
    for (const kind of ['multicast', 'broadcast', 'invalid'] as const) expect(isAllowedAddress(kind, true)).toBe(false);
  });

  it('parses IPv6 spellings to the same bytes', () => {
    const loop = parseIPv6('::1');
    expect(parseIPv6('0000:0000:0000:0000:0000:0000:0000:0001')).toEqual(loop);
    expect(parseIPv6('0::0:1')).toEqual(loop);
    expect(parseIPv6('::ffff:127.0.0.1')).toEqual(parseIPv6('::ffff:7f00:0001'));
    expect(parseIPv6('1:2:3:4:5:6:1.2.3.4')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 1, 2, 3, 4]);
  });
});
