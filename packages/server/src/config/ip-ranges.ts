import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses an IP or CIDR (v4 or v6). Throws on anything else. */
export function parseIpRange(entry: string): Range {
  const text = entry.trim();
  const address = text.split('/')[0]!;
  // ipaddr.js also takes classful shorthands like `10.0.0`; an allow-list entry must be written out.
  if (!address.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(address))
    throw new Error(`not an IP address: ${entry}`);
  if (text.includes('/')) return ipaddr.parseCIDR(text);
  const ip = ipaddr.parse(text);
  return [ip, ip.kind() === 'ipv4' ? 32 : 128];
}

export function isValidIpRange(entry: string): boolean {
  try {
    parseIpRange(entry);
    return true;
  } catch {
    return false;
  }
}

/**
 * A set of IPs and CIDRs. An IPv4-mapped IPv6 peer (`::ffff:10.0.0.1`, what a
 * dual-stack socket reports) matches its IPv4 entry, and vice versa.
 */
export class IpAllowList {
  readonly #ranges: Range[];

  constructor(entries: readonly string[]) {
    this.#ranges = entries.map((e) => {
      const [ip, bits] = parseIpRange(e);
      if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        return [(ip as ipaddr.IPv6).toIPv4Address(), bits - 96] as Range;
      }
      return [ip, bits] as Range;
    });
  }

  get size(): number {
    return this.#ranges.length;
  }

  has(address: string | undefined): boolean {
    if (!address) return false;
    let ip: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      ip = ipaddr.process(address); // unwraps IPv4-mapped IPv6
    } catch {
      return false;
    }
    return this.#ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
  }
}
