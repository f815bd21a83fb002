import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { loggerOptions, newRequestId, redactLogFields } from './logging.js';

/** A JSON-lines logger built from the service's own options, writing into an array. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino(loggerOptions('info', 'json') as pino.LoggerOptions, sink), lines };
}

describe('log redaction', () => {
  it('censors a secret field in any object at the top level, and headers, never changing the logged object', () => {
    const { log, lines } = capture();
    const call = {
      authorization: 'MAC id="k"',
      signature: 'sig',
      secret: 's',
      macKey: 'm',
      sign: 'x',
      password: 'p',
      ok: 1,
    };
    const headers = { cookie: 'gp_session=abc' };
    log.info(
      { call, headers, other: { name: 'kept' }, list: [{ secret: 'in an array: not a field of the line' }] },
      'hi',
    );
    const line = lines[0]!;
    assert.deepEqual(line.call, {
      authorization: '[redacted]',
      signature: '[redacted]',
      secret: '[redacted]',
      macKey: '[redacted]',
      sign: '[redacted]',
      password: '[redacted]',
      ok: 1,
    });
    assert.equal(line.headers, '[redacted]');
    assert.deepEqual(line.other, { name: 'kept' });
    assert.equal(call.secret, 's', 'the caller keeps its object');
    assert.equal(headers.cookie, 'gp_session=abc');
  });

  it("censors a child logger's bindings and an error's secret field, keeping the error's message", () => {
    const { log, lines } = capture();
    const err = Object.assign(new Error('refused'), { sign: 'abc' });
    log.child({ reqId: 'r-1' }).warn({ err }, 'failed');
    assert.equal(lines[0]!.reqId, 'r-1');
    const logged = lines[0]!.err as Record<string, unknown>;
    assert.equal(logged.sign, '[redacted]');
    assert.equal(logged.message, 'refused');
  });

  it('answers the same object when nothing is secret (no copy per line)', () => {
    const line = { method: 'GET', statusCode: 200, nested: { a: 1 } };
    assert.equal(redactLogFields(line), line);
  });
});

describe('request ids', () => {
  it('are UUID-shaped (version 4, RFC 4122 variant) and never repeat within a process', () => {
    const ids = Array.from({ length: 10_000 }, () => newRequestId());
    for (const id of [ids[0]!, ids[9_999]!])
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(new Set(ids).size, ids.length);
  });
});
