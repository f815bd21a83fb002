import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { Dialect } from '../db/dialect.js';
import { Batcher } from '../db/batcher.js';
import type { UploadRecord } from '../evidence/evidence.service.js';
import { firstOfEachNonce, recordNonces, type NonceUse } from '../auth/nonce-ledger.js';
import { BATCH_INSERT_REPORTS, BATCH_INSERT_REPORTS_NO_EVIDENCE, REPORT_COLUMNS } from './reports.pg-batch.js';
import {
  CLAIM_DEDUPE,
  EVIDENCE_COLUMNS,
  INSERT_REPORT,
  REASON_COLUMNS,
  REPORT_RULES,
  insertRows,
} from './reports.sqlite-batch.js';
import type { ReportsTable } from './reporting.tables.js';

/** A checked report ready to store (evidence resolved). `lockKey` = app and reporter (see BatcherOptions.lockKey). */
export interface NewReport {
  lockKey: string;
  dedupeKey: string;
  /** The request's nonce (5.1), recorded in the report's transaction. */
  nonce: NonceUse;
  row: Omit<Insertable<ReportsTable>, 'report_id' | 'status' | 'status_changed_at' | 'created_at'>;
  reasons: Array<{ reason_id: string; title: string | null; extras: string | null }>;
  evidence: Array<{ upload_id: string; name: string | null; size_byte: number; uri: string }>;
  /** Upload rows to record with the report (first citation). */
  uploads: UploadRecord[];
}

export type ReportOutcome =
  | { kind: 'stored'; reportId: number }
  /** The request's nonce was already used: nothing stored. */
  | { kind: 'replayed' }
  /** reportId 0: an identical report committed concurrently (the claim on the duplicate key was lost). */
  | { kind: 'duplicate'; reportId: number }
  | { kind: 'capped'; recent: number; openAgainst: number };

/** The rules of one batch, evaluated at its time `now`. */
export interface WriteRules {
  now: number;
  /** 0: deduplication off. */
  duplicateWindowMs: number;
  dailyCap: number;
  openCap: number;
}

export type RecordUploads = (trx: Kysely<Tables>, rows: UploadRecord[]) => Promise<void>;

const DAY_MS = 86_400_000;
const lostRace = Symbol('lost the duplicate key');

/**
 * Reports per group commit, and one batch in flight on both backends. On
 * PostgreSQL, concurrent report batches slowed each other down (each writes
 * five tables and their indexes, and waits on the WAL write lock): one at a
 * time, with larger batches, stored 6.8k reports/s against 5.75k with three
 * (docs/benchmarks.md, "Earlier sessions"). More instances still write concurrently.
 */
const MAX_BATCH = 200;
const MAX_IN_FLIGHT = 1;

/**
 * The reports store (4.1): all SQL of reports, report_reasons,
 * report_evidence and report_dedupe on the way in. `create` answers one
 * report's outcome; concurrent reports are written together (group commit,
 * db/batcher.ts), a reporter's reports never share or overlap a batch (lock
 * key: app and reporter, so the caps and the duplicate rule read what the
 * batch before wrote), and a failed batch is retried report by report. The
 * request's nonce is recorded in the same transaction or statement (the
 * nonce ledger's recordNonces / freshNoncesCte). PostgreSQL: one statement
 * for the whole batch (reports.pg-batch.ts). SQLite: the statements of each
 * report in turn, in one transaction (one fsync for the batch).
 */
export class ReportsStore {
  readonly #batcher: Batcher<NewReport, ReportOutcome>;
  readonly #writeAdmitted: (items: NewReport[], rules: WriteRules) => Promise<ReportOutcome[]>;

  /**
   * `rules` gives the rules of a batch at its time; `recordUploads` writes
   * upload rows in the given transaction (the evidence domain's SQL; SQLite only).
   */
  constructor(
    private readonly db: Kysely<Tables>,
    dialect: Dialect,
    private readonly rules: () => WriteRules,
    private readonly recordUploads: RecordUploads,
  ) {
    this.#writeAdmitted =
      dialect.name === 'postgres'
        ? (items, r) => this.#postgresBatch(items, r)
        : (items, r) => this.#sqliteBatch(items, r);
    this.#batcher = new Batcher((items) => this.#writeBatch(items), {
      maxBatch: MAX_BATCH,
      maxInFlight: MAX_IN_FLIGHT,
      lockKey: (report) => report.lockKey,
      retryAlone: true,
    });
  }

  /** Stores one report (answered after its batch's COMMIT). */
  create(report: NewReport): Promise<ReportOutcome> {
    return this.#batcher.submit(report);
  }

  async #writeBatch(items: NewReport[]): Promise<ReportOutcome[]> {
    // The same nonce twice in one batch (one app, two reporters): only the first can be fresh.
    const fresh = firstOfEachNonce(items.map((item) => item.nonce));
    const out: ReportOutcome[] = items.map(() => ({ kind: 'replayed' }));
    const admitted = items.filter((_, i) => fresh[i]);
    const written = admitted.length === 0 ? [] : await this.#writeAdmitted(admitted, this.rules());
    let k = 0;
    fresh.forEach((isFresh, i) => {
      if (isFresh) out[i] = written[k++]!;
    });
    return out;
  }

  async #sqliteBatch(items: NewReport[], rules: WriteRules): Promise<ReportOutcome[]> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const out: ReportOutcome[] = [];
        for (const item of items) out.push(await this.#writeOne(trx, item, rules));
        return out;
      });
    } catch (err) {
      // Only a lone report can answer its lost race (a batch is retried report by report).
      if (err === lostRace && items.length === 1) return [{ kind: 'duplicate', reportId: 0 }];
      throw err;
    }
  }

  async #postgresBatch(items: NewReport[], r: WriteRules): Promise<ReportOutcome[]> {
    const input = items.map((item, idx) => ({
      idx,
      nonce_scope: item.nonce.scope,
      nonce_value: item.nonce.nonce,
      nonce_expires_at: item.nonce.expiresAt,
      dedupe_key: item.dedupeKey,
      ...item.row,
      reasons: item.reasons.map((x, position) => ({ position, ...x })),
      evidence: item.evidence.map((x, position) => ({ position, ...x })),
      uploads: item.uploads,
    }));
    const params = [
      r.now,
      r.now - DAY_MS,
      r.now + r.duplicateWindowMs,
      r.duplicateWindowMs > 0,
      r.dailyCap,
      r.openCap,
      JSON.stringify(input),
    ];
    // Constant SQL text, no query builder on the hot path.
    const { rows } = await this.db.executeQuery<{
      idx: number;
      dup: number | null;
      recent: number;
      open_against: number;
      report_id: number | null;
    }>(
      CompiledQuery.raw(
        items.some((x) => x.evidence.length > 0) ? BATCH_INSERT_REPORTS : BATCH_INSERT_REPORTS_NO_EVIDENCE,
        params,
      ),
    );
    // A report missing from the answer had a used nonce.
    const out: ReportOutcome[] = items.map(() => ({ kind: 'replayed' }));
    for (const row of rows) {
      out[row.idx] =
        row.dup !== null
          ? { kind: 'duplicate', reportId: Number(row.dup) }
          : row.report_id !== null
            ? { kind: 'stored', reportId: Number(row.report_id) }
            : row.recent >= r.dailyCap || row.open_against >= r.openCap
              ? { kind: 'capped', recent: row.recent, openAgainst: row.open_against }
              : { kind: 'duplicate', reportId: 0 };
    }
    return out;
  }

  /** SQLite: one report's statements in its batch's transaction (reports.sqlite-batch.ts). */
  async #writeOne(trx: Kysely<Tables>, item: NewReport, r: WriteRules): Promise<ReportOutcome> {
    if (!(await recordNonces(trx, [item.nonce]))[0]) return { kind: 'replayed' };
    const { app_id: appId, reporter_key: reporter, reportee_key: reportee } = item.row;
    const dedupe = r.duplicateWindowMs > 0;
    const since = r.now - DAY_MS;
    const rules = await run<{ dup: number | null; recent: number; open_against: number }>(trx, REPORT_RULES, [
      appId,
      dedupe ? item.dedupeKey : null,
      r.now,
      since,
      reportee,
      appId,
      reporter,
      since,
      reportee,
    ]);
    const { dup, recent, open_against: openAgainst } = rules.rows[0]!;
    if (dup !== null) return { kind: 'duplicate', reportId: dup };
    if (recent >= r.dailyCap || openAgainst >= r.openCap) return { kind: 'capped', recent, openAgainst };
    const row = item.row as Record<string, unknown>;
    const inserted = await run<{ report_id: number }>(trx, INSERT_REPORT, [
      ...REPORT_COLUMNS.map((c) => row[c] ?? null),
      r.now,
      r.now,
    ]);
    const reportId = inserted.rows[0]!.report_id;
    if (dedupe) {
      const expiresAt = r.now + r.duplicateWindowMs;
      const claim = await run(trx, CLAIM_DEDUPE, [appId, item.dedupeKey, reportId, expiresAt, r.now]);
      if (claim.numAffectedRows !== 1n) throw lostRace;
    }
    if (item.reasons.length > 0) {
      await run(
        trx,
        insertRows('report_reasons', REASON_COLUMNS, item.reasons.length),
        item.reasons.flatMap((x, position) => [reportId, position, x.reason_id, x.title, x.extras]),
      );
    }
    await this.recordUploads(trx, item.uploads);
    if (item.evidence.length > 0) {
      await run(
        trx,
        insertRows('report_evidence', EVIDENCE_COLUMNS, item.evidence.length),
        item.evidence.flatMap((x, position) => [reportId, position, x.upload_id, x.name, x.size_byte, x.uri]),
      );
    }
    return { kind: 'stored', reportId: Number(reportId) };
  }
}

/** Runs one constant statement of reports.sqlite-batch.ts. */
function run<R = unknown>(trx: Kysely<Tables>, text: string, params: unknown[]) {
  return trx.executeQuery<R>(CompiledQuery.raw(text, params));
}
