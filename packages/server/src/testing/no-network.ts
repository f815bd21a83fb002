/**
 * Records every outbound TCP connection a test makes (Node's `net.client.socket` diagnostics channel sees those of
 * node:http, fetch/undici, node-fetch and gaxios alike), so a test can assert that nothing left 127.0.0.1: a
 * library's hard-coded host (Apple's API, Google's token endpoint or certificates, an OCSP responder) would show
 * here, as its name looked up or the address tried.
 */
import assert from 'node:assert/strict';
import dc from 'node:diagnostics_channel';
import { after } from 'node:test';
import type { Socket } from 'node:net';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1', 'localhost']);

export interface OutboundWatch {
  /** Hosts or addresses other than loopback that something tried to reach. */
  readonly outside: string[];
  stop(): void;
}

export function watchOutboundConnections(): OutboundWatch {
  const outside: string[] = [];
  const note = (host: unknown) => {
    if (typeof host === 'string' && host && !LOOPBACK.has(host)) outside.push(host);
  };
  const onSocket = (message: unknown) => {
    const socket = (message as { socket: Socket }).socket;
    socket.on('lookup', (_err: Error | null, address: string, _family: unknown, host: string) => {
      note(host);
      note(address);
    });
    socket.on('connectionAttempt', (ip: string) => note(ip));
    socket.once('connect', () => note(socket.remoteAddress));
  };
  dc.subscribe('net.client.socket', onSocket);
  return { outside, stop: () => dc.unsubscribe('net.client.socket', onSocket) };
}

/** For a test file: watches its connections from now on and fails after its tests if any left 127.0.0.1. */
export function failIfAnyTestReachesTheNetwork(): void {
  const outbound = watchOutboundConnections();
  after(() => {
    outbound.stop();
    assert.deepEqual(outbound.outside, [], 'a test reached past 127.0.0.1');
  });
}
