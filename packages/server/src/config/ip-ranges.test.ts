import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IpAllowList, isValidIpRange } from './ip-ranges.js';

describe('IP allow-lists', () => {
  const list = new IpAllowList(['203.0.113.7', '198.51.100.0/24', '2001:db8::/32', '::ffff:192.0.2.0/120']);

  it('matches single IPs and CIDRs of both families', () => {
    assert.ok(list.has('203.0.113.7'));
    assert.ok(!list.has('203.0.113.8'));
    assert.ok(list.has('198.51.100.255'));
    assert.ok(!list.has('198.51.101.0'));
    assert.ok(list.has('2001:db8:1::5'));
    assert.ok(!list.has('2001:db9::1'));
  });

  it('treats IPv4-mapped IPv6 peers as their IPv4 address', () => {
    assert.ok(list.has('::ffff:203.0.113.7'));
    assert.ok(list.has('192.0.2.9'), 'a mapped CIDR entry covers the IPv4 address');
    assert.ok(!list.has('::ffff:203.0.113.8'));
  });

  it('never matches garbage or nothing', () => {
    for (const ip of [undefined, '', 'localhost', '203.0.113.7, 1.2.3.4', '999.1.1.1']) assert.ok(!list.has(ip));
    assert.ok(!new IpAllowList([]).has('127.0.0.1'));
  });

  it('validates entries', () => {
    for (const ok of ['10.0.0.1', '10.0.0.0/8', '::1', 'fe80::/10']) assert.ok(isValidIpRange(ok), ok);
    for (const bad of ['10.0.0.0/33', '10.0.0', 'x', '::/129', '']) assert.ok(!isValidIpRange(bad), bad);
  });
});
