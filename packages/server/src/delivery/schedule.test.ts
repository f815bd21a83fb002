import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, ConfigError } from '../config/config.js';
import { nextAttemptAt, parseDurations, parseSchedule, scheduleSpanMs } from './schedule.js';
import { deliveryOptions } from './delivery.config.js';
import { AppRateLimiter, KeyedLimiter, LimiterClosedError } from './limits.js';

describe('retry schedule', () => {
  it('defaults to 11 attempts over about 3.9 days (0, 15 s, 1 m, 5 m, 30 m, 2 h, 6 h, 12 h, then daily)', () => {
    const { schedule } = deliveryOptions(loadConfig({}));
    assert.deepEqual(
      schedule.delays,
      [0, 15e3, 60e3, 300e3, 1800e3, 7200e3, 21600e3, 43200e3, 86400e3, 86400e3, 86400e3],
    );
    const days = scheduleSpanMs(schedule) / 86_400_000;
    assert.ok(days > 3.8 && days <= 4, `${days} days`);
    assert.equal(schedule.jitter, 0.1);
  });

  it('parses units and refuses malformed schedules at start', () => {
    assert.deepEqual(parseDurations('0, 250ms,2s,3m,1h,1d'), [0, 250, 2000, 180_000, 3_600_000, 86_400_000]);
    assert.throws(() => parseSchedule('5s,1m', 0), /first delay/);
    assert.throws(() => parseDurations('0,10x'), /bad duration/);
    for (const bad of ['15s,1m', '0,1 m', '0,,1s', 'soon']) {
      assert.throws(() => loadConfig({ DELIVERY_SCHEDULE: bad }), ConfigError, bad);
    }
    assert.throws(() => loadConfig({ DELIVERY_JITTER: '2' }), /DELIVERY_JITTER/);
  });

  it('computes the next attempt with jitter inside its bounds; null after the last', () => {
    const s = parseSchedule('0,10s,100s', 0.1);
    assert.equal(
      nextAttemptAt(s, 1, 1000, () => 0.5),
      11_000,
    );
    assert.equal(
      nextAttemptAt(s, 1, 0, () => 0),
      9000,
    );
    assert.equal(
      nextAttemptAt(s, 1, 0, () => 0.999999),
      11_000,
    );
    assert.equal(
      nextAttemptAt(s, 2, 0, () => 0.5),
      100_000,
    );
    for (let i = 0; i < 200; i++) {
      const at = nextAttemptAt(s, 2, 0)!;
      assert.ok(at >= 90_000 && at <= 110_000);
    }
    assert.equal(nextAttemptAt(s, 3, 0), null, 'dead after the third attempt');
    assert.equal(nextAttemptAt(s, 4, 0), null, 'a resent dead event dies after one more');
  });
});

describe('delivery limits', () => {
  it('per-host limiter: at most N at once per host, a bounded queue, others unaffected', async () => {
    const l = new KeyedLimiter(2, 1);
    await l.acquire('slow');
    await l.acquire('slow');
    let third = false;
    const waiting = l.acquire('slow').then(() => {
      third = true;
    });
    assert.equal(l.canQueue('slow'), false, 'queue full: defer');
    await l.acquire('healthy'); // not blocked by the slow host
    await new Promise((r) => setImmediate(r));
    assert.equal(third, false);
    l.release('slow');
    await waiting;
    assert.equal(third, true);
    const stuck = l.acquire('slow');
    l.close();
    await assert.rejects(stuck, LimiterClosedError);
    await assert.rejects(l.acquire('other'), LimiterClosedError);
  });

  it('per-app rate limit: a token bucket of N per second; 0 is unlimited', () => {
    let now = 0;
    const r = new AppRateLimiter(2, () => now);
    assert.equal(r.take(1), 0);
    assert.equal(r.take(1), 0);
    assert.equal(r.take(1), 500);
    assert.equal(r.take(2), 0, 'apps have separate buckets');
    now = 500;
    assert.equal(r.take(1), 0);
    const off = new AppRateLimiter(0, () => now);
    for (let i = 0; i < 1000; i++) assert.equal(off.take(1), 0);
  });
});
