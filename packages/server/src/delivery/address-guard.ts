import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { IpAllowList } from '../config/ip-ranges.js';

/** Thrown (as a socket error) when a game URL resolves to an address we must not call. */
export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError';
  readonly code = 'ERR_ADDRESS_REFUSED';
}

/**
 * Production-mode protection of our own network (SSRF): calls to games may only
 * reach public unicast addresses, unless an address is on the configured
 * allow-list (private deployments). Checked on the address actually connected
 * to, at connection time, so a DNS answer cannot be swapped after a check.
 */
export class AddressGuard {
  constructor(private readonly allow: IpAllowList) {}

  /** Why `address` is refused, or null when it may be called. */
  refusal(address: string): string | null {
    let ip: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      ip = ipaddr.process(address);
    } catch {
      return `${address} is not an IP address`;
    }
    if (this.allow.has(ip.toString())) return null;
    // 'unicast' is ipaddr.js's name for everything not in a special-purpose
    // range: loopback, private, link-local (cloud metadata 169.254.169.254),
    // unique-local, carrier-grade NAT, multicast, reserved, ... are all refused.
    const range = ip.range();
    return range === 'unicast' ? null : `${address} is a ${range} address`;
  }

  /** A `lookup` for node:http that resolves, then refuses disallowed addresses. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as dns.LookupAddress[];
      for (const a of list) {
        const why = this.refusal(a.address);
        if (why) return callback(new AddressRefusedError(`${hostname} resolves to ${why}`), '', 4);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
      return callback(null, first.address, first.family);
    });
  };
}

/** The guard of production mode; none in development (games on localhost). */
export function addressGuardFor(production: boolean, allowList: string): AddressGuard | null {
  if (!production) return null;
  return new AddressGuard(
    new IpAllowList(
      allowList
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  );
}
