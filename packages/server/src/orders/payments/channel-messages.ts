import type client from 'prom-client';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../../db/tables.js';
import { newestFirst, whereGiven } from '../../db/list-filter.js';
import { attachOnce, counter } from '../../http/unattached-metrics.js';

/**
 * The message log of the payment channels that talk back: the stores' messages (store-payments/, store_messages,
 * migration 0014) and the web payment providers' (payment-providers/, provider_messages, migration 0022). Each kind
 * keeps its own table and columns (no migration); what they share is written once here: every message recorded with
 * its outcome and counted by channel and outcome, the delivery that took effect holding the message's dedup key, the
 * operator's list newest first. Here, under orders/payments/ (the channel seam both implement), so both import it
 * without a cycle. Which message is a replay, and what a message does, stays with each channel.
 */
export type MessageTable = 'store_messages' | 'provider_messages';

/** What a kind of channel's log is: its table, the column naming the channel (`store`, `provider`), its metric. */
export interface MessageLogSpec<T extends MessageTable> {
  table: T;
  channel: 'store' | 'provider';
  metric: { name: string; help: string };
}

/** The operator's list: an app's messages, the given columns equal, received since, newest first by page. */
export interface MessageListQuery {
  appId: number;
  equal: Record<string, string | number | undefined>;
  since?: number;
  before?: number;
  limit: number;
}

export class ChannelMessageLog<T extends MessageTable> {
  readonly counter: client.Counter<'store' | 'provider' | 'outcome'>;

  constructor(
    private readonly spec: MessageLogSpec<T>,
    private readonly db: Kysely<Tables>,
    /** Where the operator's list reads: Database.reads (the read replica), a moment stale at most. */
    private readonly reads: Kysely<Tables> = db,
  ) {
    this.counter = counter(spec.metric.name, spec.metric.help, [spec.channel, 'outcome']);
  }

  /** The message holding `dedupKey` for this channel and app (the delivery that took effect), if any. */
  byKey(channel: string, appId: number, dedupKey: string): Promise<Selectable<Tables[T]> | undefined> {
    return this.select(this.db)
      .where(this.spec.channel, '=', channel)
      .where('app_id', '=', appId)
      .where('dedup_key', '=', dedupKey)
      .executeTakeFirst() as Promise<Selectable<Tables[T]> | undefined>;
  }

  /** Records a message and counts it. */
  async record(row: Insertable<Tables[T]>): Promise<void> {
    await this.insert(this.db, row);
    const r = row as unknown as Record<'store' | 'provider' | 'outcome', string>;
    this.count(r[this.spec.channel], r.outcome);
  }

  /**
   * Records the message that took effect inside the transaction of its effect, holding its dedup key; if another
   * delivery of the same message holds the key already (it found the effect made), this one is still recorded,
   * without. Not counted here: `count` once the transaction committed.
   */
  async recordClaiming(trx: Kysely<Tables>, row: Insertable<Tables[T]>): Promise<void> {
    const res = await loose(trx)
      .insertInto(this.table)
      .values(row as never)
      .onConflict((oc) => oc.columns([this.spec.channel, 'app_id', 'dedup_key']).doNothing())
      .executeTakeFirst();
    if (Number(res.numInsertedOrUpdatedRows ?? 0) === 0)
      await this.insert(trx, { ...row, dedup_key: null } as Insertable<Tables[T]>);
  }

  /** Counts a recorded message by its channel (the store or provider) and outcome. */
  count(channel: string, outcome: string): void {
    this.counter.inc({ [this.spec.channel]: channel, outcome });
  }

  list(q: MessageListQuery): Promise<Selectable<Tables[T]>[]> {
    let query = whereGiven(this.select(this.reads).where('app_id', '=', q.appId), q.equal);
    if (q.since !== undefined) query = query.where('received_at', '>=', q.since);
    return newestFirst(query, 'message_id', q).execute() as Promise<Selectable<Tables[T]>[]>;
  }

  /** Registers the metric into the instance's registry (app.metrics). */
  attach(registry: client.Registry): void {
    attachOnce(registry, { [this.spec.metric.name]: this.counter });
  }

  private get table() {
    return this.spec.table as unknown as 'messages';
  }

  private select(db: Kysely<Tables>) {
    return loose(db).selectFrom(this.table).selectAll();
  }

  private async insert(db: Kysely<Tables>, row: Insertable<Tables[T]>): Promise<void> {
    await loose(db)
      .insertInto(this.table)
      .values(row as never)
      .execute();
  }
}

/** The columns both tables have, by which the log reads and writes either (its callers keep each table's own types). */
interface MessageColumns {
  message_id: number;
  app_id: number;
  store: string;
  provider: string;
  dedup_key: string | null;
  outcome: string;
  received_at: number;
}

/** Either table as one of those columns: the log's statements are the same SQL over each. */
const loose = (db: Kysely<Tables>) => db as unknown as Kysely<{ messages: MessageColumns }>;
