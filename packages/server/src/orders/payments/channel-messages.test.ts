import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import client from 'prom-client';
import { freshDatabase } from '../../testing/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Tables } from '../../db/tables.js';
import { ChannelMessageLog } from './channel-messages.js';

const storeRow = (over: Partial<{ dedup_key: string | null; outcome: 'applied' | 'duplicate'; app_id: number }>) => ({
  app_id: 7,
  store: 'apple' as const,
  source: 'push' as const,
  notification_id: 'n-1',
  dedup_key: null,
  type: 'REFUND',
  outcome: 'applied' as const,
  error_code: null,
  trx_no: null,
  received_at: 1000,
  excerpt: null,
  ...over,
});

const providerRow = (dedupKey: string | null) => ({
  app_id: 7,
  provider: 'stripe',
  source: 'notify' as const,
  event_id: 'evt_1',
  dedup_key: dedupKey,
  type: 'charge.succeeded',
  outcome: 'applied' as const,
  reason: null,
  trx_no: 42,
  provider_trx_id: 'pi_1',
  amount_minor: 100,
  currency: 'USD',
  received_at: 2000,
  excerpt: null,
});

/** The one message log of store and provider messages (channel-messages.ts), over each of its two tables. */
describe('channel message log', () => {
  let database: Database;
  before(async () => {
    ({ database } = await freshDatabase());
    await migrateToLatest(database);
  });
  after(async () => {
    await database.close();
  });

  const db = (): Kysely<Tables> => database.db;
  const storeLog = () =>
    new ChannelMessageLog(
      { table: 'store_messages', channel: 'store', metric: { name: 'test_store_messages_total', help: 'test' } },
      database.db,
    );
  const providerLog = () =>
    new ChannelMessageLog(
      {
        table: 'provider_messages',
        channel: 'provider',
        metric: { name: 'test_provider_messages_total', help: 'test' },
      },
      database.db,
    );

  it('records and counts store messages, finds the one holding a key, lists an app newest first by the given columns', async () => {
    const log = storeLog();
    await log.record(storeRow({ dedup_key: 'k1' }));
    await log.record(storeRow({ outcome: 'duplicate' }));
    await log.record(storeRow({ app_id: 8 }));
    assert.equal((await log.byKey('apple', 7, 'k1'))?.outcome, 'applied');
    assert.equal(await log.byKey('google', 7, 'k1'), undefined);
    const all = await log.list({ appId: 7, equal: {}, limit: 10 });
    assert.deepEqual(
      all.map((m) => m.outcome),
      ['duplicate', 'applied'],
    );
    const dup = await log.list({ appId: 7, equal: { outcome: 'duplicate', store: 'apple' }, limit: 10 });
    assert.equal(dup.length, 1);
    const page = await log.list({ appId: 7, equal: {}, before: Number(all[0]!.message_id), limit: 10 });
    assert.deepEqual(
      page.map((m) => m.outcome),
      ['applied'],
    );
    const registry = new client.Registry();
    log.attach(registry);
    const metric = await registry.getSingleMetric('test_store_messages_total')!.get();
    const applied = metric.values.find((v) => v.labels.store === 'apple' && v.labels.outcome === 'applied');
    assert.equal(applied?.value, 2);
  });

  it('a claiming record holds the key once; a second claim of it is recorded without the key', async () => {
    const log = providerLog();
    await db()
      .transaction()
      .execute((trx) => log.recordClaiming(trx, providerRow('evt_1')));
    await db()
      .transaction()
      .execute((trx) => log.recordClaiming(trx, providerRow('evt_1')));
    const rows = await log.list({ appId: 7, equal: { provider: 'stripe', trx_no: 42 }, limit: 10 });
    assert.deepEqual(
      rows.map((r) => r.dedup_key),
      [null, 'evt_1'],
    );
    assert.equal((await log.byKey('stripe', 7, 'evt_1'))?.message_id, rows[1]!.message_id);
    assert.equal((await log.list({ appId: 7, equal: {}, since: 2001, limit: 10 })).length, 0);
  });
});
