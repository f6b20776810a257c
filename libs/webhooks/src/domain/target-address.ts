/**
 * SSRF guard, address half: what kind of address a webhook would connect to. Only `public`
 * addresses are allowed unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true, which allows every kind but
 * multicast and broadcast (never a TCP peer). IPv4-mapped, -compatible and -translated IPv6,
 * NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses are judged by the IPv4 address they carry,
 * so `::ffff:127.0.0.1` is loopback. Pure: no DNS here (see webhook-url.ts and the resolver).
 */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private' // RFC 1918, unique-local fc00::/7, site-local fec0::/10, local NAT64
  | 'shared' // carrier-grade NAT 100.64.0.0/10
  | 'link_local' // 169.254.0.0/16 (cloud metadata 169.254.169.254), fe80::/10
  | 'multicast'
  | 'broadcast'
  | 'unspecified' // 0.0.0.0/8, ::
  | 'reserved' // documentation, benchmarking, IETF, future use, non-global IPv6
  | 'invalid';

export function isAllowedAddress(kind: AddressKind, allowPrivate: boolean): boolean {
  if (kind === 'public') return true;
  return allowPrivate && kind !== 'multicast' && kind !== 'broadcast' && kind !== 'invalid';
}

export const ADDRESS_KIND_TEXT: Record<AddressKind, string> = {
  public: 'a public address',
  loopback: 'a loopback address',
  private: 'a private address',
  shared: 'a carrier-grade NAT address',
  link_local: 'a link-local address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'an unspecified address',
  reserved: 'a reserved address',
  invalid: 'an address that is not valid',
};

export function classifyAddress(address: string): AddressKind {
  const v4 = parseIPv4(address);
  if (v4) return classifyIPv4(v4);
  const v6 = parseIPv6(address);
  if (v6) return classifyIPv6(v6);
  return 'invalid';
}

export function isIpLiteral(host: string): boolean {
  return parseIPv4(host) !== null || parseIPv6(host) !== null;
}

export function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

/** 16 bytes, or null. Accepts `::` compression, an embedded dotted IPv4 tail and a `%zone`. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':') || !/^[0-9a-fA-F:.]+$/.test(s)) return null;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4(s.slice(lastColon + 1));
    if (!v4) return null;
    tail = v4;
    s = s.slice(0, lastColon + 1) + '0:0'; // two placeholder groups, replaced below
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const words = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest].map((g) => parseInt(g, 16));
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function classifyIPv4([a, b, c, d]: number[]): AddressKind {
  if (a === 0) return 'unspecified';
  if (a === 10) return 'private';
  if (a === 100 && (b & 0xc0) === 64) return 'shared';
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link_local';
  if (a === 172 && (b & 0xf0) === 16) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return 'reserved'; // IETF protocol assignments, TEST-NET-1
  if (a === 192 && b === 88 && c === 99) return 'reserved'; // former 6to4 relay anycast
  if (a === 198 && (b & 0xfe) === 18) return 'reserved'; // benchmarking
  if (a === 198 && b === 51 && c === 100) return 'reserved'; // TEST-NET-2
  if (a === 203 && b === 0 && c === 113) return 'reserved'; // TEST-NET-3
  if (a >= 224 && a <= 239) return 'multicast';
  if (a === 255 && b === 255 && c === 255 && d === 255) return 'broadcast';
  if (a >= 240) return 'reserved';
  return 'public';
}

function classifyIPv6(x: number[]): AddressKind {
  const zeros = (from: number, to: number) => x.slice(from, to).every((v) => v === 0);
  const v4 = (from: number) => classifyIPv4(x.slice(from, from + 4));
  if (zeros(0, 16)) return 'unspecified';
  if (zeros(0, 15) && x[15] === 1) return 'loopback';
  if (zeros(0, 10) && x[10] === 0xff && x[11] === 0xff) return v4(12); // ::ffff:a.b.c.d mapped
  if (zeros(0, 12)) return v4(12); // ::a.b.c.d compatible (deprecated, still routed by some stacks)
  if (zeros(0, 8) && x[8] === 0xff && x[9] === 0xff && zeros(10, 12)) return v4(12); // ::ffff:0:a.b.c.d translated
  const w0 = (x[0] << 8) | x[1];
  const w1 = (x[2] << 8) | x[3];
  const w2 = (x[4] << 8) | x[5];
  if (w0 === 0x0064 && w1 === 0xff9b && zeros(4, 12)) return v4(12); // NAT64 well-known prefix
  if (w0 === 0x0064 && w1 === 0xff9b && w2 === 0x0001) return 'private'; // local-use NAT64
  if (w0 === 0x2002) return v4(2); // 6to4 carries its IPv4 in bits 16-47
  if (x[0] === 0xff) return 'multicast';
  if ((x[0] & 0xfe) === 0xfc) return 'private'; // unique local fc00::/7
  if (x[0] === 0xfe && (x[1] & 0xc0) === 0x80) return 'link_local'; // fe80::/10
  if (x[0] === 0xfe && (x[1] & 0xc0) === 0xc0) return 'private'; // site-local fec0::/10
  if (w0 === 0x0100 && zeros(2, 8)) return 'reserved'; // discard-only 100::/64
  if (w0 === 0x2001 && w1 === 0x0db8) return 'reserved'; // documentation
  if (w0 === 0x2001 && w1 === 0x0000) return 'reserved'; // Teredo (carries an obfuscated IPv4)
  if (w0 === 0x2001 && w1 < 0x0200) return 'reserved'; // other IETF protocol assignments 2001::/23
  if (w0 === 0x3fff && (w1 & 0xf000) === 0) return 'reserved'; // documentation 3fff::/20
  if ((x[0] & 0xe0) !== 0x20) return 'reserved'; // outside global unicast 2000::/3
  return 'public';
}
