import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { watchOutboundConnections } from '../testing/no-network.js';

describe('the outbound-connection watch the store tests rely on', () => {
  it('sees fetch and node:http connections past 127.0.0.1 and ignores loopback', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    const { port } = server.address() as AddressInfo;
    const watch = watchOutboundConnections();
    try {
      await (await fetch(`http://127.0.0.1:${port}/`)).text();
      assert.deepEqual(watch.outside, []);
      // 127.0.0.2 is still this machine, but not the 127.0.0.1 the fixtures use: it must be reported.
      await (await fetch(`http://127.0.0.2:${port}/`)).text();
      await new Promise<void>((resolve) =>
        http.get(`http://127.0.0.2:${port}/`, (res) => res.resume().on('end', resolve)),
      );
      assert.ok(watch.outside.length >= 2 && watch.outside.every((h) => h === '127.0.0.2'), String(watch.outside));
    } finally {
      watch.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
