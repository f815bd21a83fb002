import crypto from 'node:crypto';
import { AppError, invalidParameter } from '../errors/app-error.js';
import type { CitedFile, EvidenceService } from '../evidence/evidence.service.js';
import type { NonceUse } from '../auth/nonce-ledger.js';
import { ReplayGuard } from '../auth/replay.js';
import type { ReportsStore } from './reports.store.js';
import type { CreateReportLogReq } from './reporting.schemas.js';

export interface ReportLimits {
  maxReasons: number;
  descriptionMaxChars: number;
  extrasMaxChars: number;
  duplicateWindowSeconds: number;
  dailyCapPerReporter: number;
  openCapPerReportee: number;
}

export type ReportStatus = 'open' | 'actioned' | 'dismissed';
export const REPORT_STATUSES: readonly ReportStatus[] = ['open', 'actioned', 'dismissed'];

/** A User of 2.1, checked, with the key that identifies the player. */
export interface Player {
  key: string;
  svcid?: string | undefined;
  role_id?: string | undefined;
  server_code?: string | undefined;
  role_name?: string | undefined;
  extra?: string | undefined;
}

/** A 4.1 body checked and normalised (documented spellings, int64 in decimal form). */
export interface PreparedReport {
  clientId: string;
  clientIp: string | undefined;
  deviceId: string | undefined;
  reporter: Player;
  reportee: Player;
  reasons: Array<{ id: string; title: string | undefined; extras: string | undefined }>;
  evidence: CitedFile[];
  userDescription: string | undefined;
  extras: string | undefined;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** An int64 given as a JSON number or decimal string, in canonical decimal form. */
function int64(field: string, value: number | string, min: bigint = INT64_MIN): string {
  const n = BigInt(value);
  if (n < min || n > INT64_MAX)
    throw invalidParameter(field, min === 0n ? 'must be a non-negative int64' : 'is out of the int64 range');
  return n.toString();
}

/** Length in characters (code points), as JSON Schema counts. */
function checkLength(field: string, value: string | undefined, max: number, variable: string): void {
  if (value !== undefined && value.length > max && [...value].length > max)
    throw invalidParameter(field, `must be at most ${max} characters (${variable})`);
}

/** One of two spellings of a field (spec 2.1); both given must agree. */
function eitherSpelling(
  documented: string,
  documentedValue: string | undefined,
  other: string,
  otherValue: string | undefined,
): string | undefined {
  if (documentedValue !== undefined && otherValue !== undefined && documentedValue !== otherValue) {
    throw invalidParameter(other, `differs from ${documented}; send one of the two spellings`);
  }
  return documentedValue ?? otherValue;
}

/**
 * Player reports (4.1): checks, duplicate rule, per-reporter caps, and the
 * one transaction that stores a report with its reasons and evidence.
 */
export class ReportService {
  constructor(
    private readonly reports: ReportsStore,
    private readonly evidence: EvidenceService,
    readonly limits: ReportLimits,
  ) {}

  /** Checks that need neither the database nor the app: run before the signature is verified. */
  prepare(body: CreateReportLogReq): PreparedReport {
    const L = this.limits;
    const { client_info: ci } = body;
    const player = (who: 'reporter' | 'reportee'): Player => {
      const u = body[who];
      if (!u.svcid && !u.role_id) throw invalidParameter(`${who}.svcid`, 'svcid or role_id is required');
      checkLength(`${who}.extra`, u.extra, L.extrasMaxChars, 'REPORT_EXTRAS_MAX_CHARS');
      return { ...u, key: u.svcid ? u.svcid : `role:${u.server_code ?? ''}:${u.role_id}` };
    };
    const reporter = player('reporter');
    const reportee = player('reportee');
    const sameRole =
      !!reporter.role_id &&
      reporter.role_id === reportee.role_id &&
      (reporter.server_code ?? '') === (reportee.server_code ?? '');
    if (reporter.key === reportee.key || (!!reporter.svcid && reporter.svcid === reportee.svcid) || sameRole) {
      throw invalidParameter('reportee', 'is the reporter: a player cannot report themself');
    }

    if (body.reasons.length > L.maxReasons)
      throw invalidParameter('reasons', `at most ${L.maxReasons} reasons (REPORT_MAX_REASONS)`);
    const reasonIds = new Map<string, number>();
    const reasons = body.reasons.map((r, i) => {
      const id = int64(`reasons.${i}.id`, r.id);
      if (reasonIds.has(id))
        throw invalidParameter(`reasons.${i}.id`, `is listed twice (as reasons.${reasonIds.get(id)})`);
      reasonIds.set(id, i);
      const extras = eitherSpelling(`reasons.${i}.extras`, r.extras, `reasons.${i}.extra`, r.extra);
      checkLength(`reasons.${i}.extras`, extras, L.extrasMaxChars, 'REPORT_EXTRAS_MAX_CHARS');
      return { id, title: r.title, extras };
    });

    const evidence = (body.evidence ?? []).map((f, i): CitedFile => ({
      uri: f.uri,
      name: f.name,
      sizeByte: f.size_byte === undefined ? undefined : int64(`evidence.${i}.size_byte`, f.size_byte, 0n),
    }));
    if (evidence.length > this.evidence.limits.maxFiles)
      throw invalidParameter('evidence', `at most ${this.evidence.limits.maxFiles} files (EVIDENCE_MAX_FILES)`);
    checkLength('user_description', body.user_description, L.descriptionMaxChars, 'REPORT_DESCRIPTION_MAX_CHARS');
    checkLength('extras', body.extras, L.extrasMaxChars, 'REPORT_EXTRAS_MAX_CHARS');

    return {
      clientId: ci.client_id,
      clientIp: ci.ip,
      deviceId: eitherSpelling('client_info.DeviceID', ci.DeviceID, 'client_info.device_id', ci.device_id),
      reporter,
      reportee,
      reasons,
      evidence,
      userDescription: body.user_description,
      extras: body.extras,
    };
  }

  /**
   * Stores a report of an authenticated app. A repeat of a report with the same
   * reporter, reportee and reason set within REPORT_DUPLICATE_WINDOW_SECONDS is
   * answered as a success and not stored again. Concurrent reports are written
   * together (group commit, the store's business); each is answered after the
   * shared commit. The request's nonce (handed on by the md5 hook) is recorded
   * in the same transaction; a used one is refused (NONCE_REUSED) and nothing
   * is stored.
   */
  async create(appId: number, p: PreparedReport, nonce: NonceUse): Promise<{ reportId: number; duplicate: boolean }> {
    const evidence =
      p.evidence.length === 0 ? [] : await this.evidence.resolveCited(appId, p.reporter.svcid, p.evidence);
    const L = this.limits;
    const dedupeKey = crypto
      .createHash('sha256')
      .update(JSON.stringify([p.reporter.key, p.reportee.key, p.reasons.map((r) => r.id).sort()]))
      .digest('hex');
    const outcome = await this.reports.create({
      lockKey: `${appId}:${p.reporter.key}`,
      dedupeKey,
      nonce,
      row: {
        app_id: appId,
        client_id: p.clientId,
        client_ip: p.clientIp ?? null,
        device_id: p.deviceId ?? null,
        ...playerColumns('reporter', p.reporter),
        ...playerColumns('reportee', p.reportee),
        user_description: p.userDescription ?? null,
        extras: p.extras ?? null,
      },
      reasons: p.reasons.map((r) => ({ reason_id: r.id, title: r.title ?? null, extras: r.extras ?? null })),
      evidence: evidence.map((e) => ({ upload_id: e.uploadId, name: e.name, size_byte: e.size, uri: e.uri })),
      uploads: evidence.flatMap((e) => (e.record ? [e.record] : [])),
    });
    if (outcome.kind === 'replayed') throw ReplayGuard.nonceReused();
    if (outcome.kind === 'capped') {
      if (outcome.recent >= L.dailyCapPerReporter) {
        throw new AppError(
          'REPORT_LIMIT_REACHED',
          `the reporter has filed ${outcome.recent} reports in the last 24 hours; the limit is ${L.dailyCapPerReporter} (REPORT_DAILY_CAP_PER_REPORTER)`,
        );
      }
      throw new AppError(
        'REPORT_LIMIT_REACHED',
        `the reporter has ${outcome.openAgainst} open reports against this reportee; the limit is ${L.openCapPerReportee} (REPORT_OPEN_CAP_PER_REPORTEE)`,
      );
    }
    return { reportId: outcome.reportId, duplicate: outcome.kind === 'duplicate' };
  }
}

function playerColumns<W extends 'reporter' | 'reportee'>(who: W, u: Player) {
  return {
    [`${who}_key`]: u.key,
    [`${who}_svcid`]: u.svcid ?? null,
    [`${who}_role_id`]: u.role_id ?? null,
    [`${who}_server_code`]: u.server_code ?? null,
    [`${who}_role_name`]: u.role_name ?? null,
    [`${who}_extra`]: u.extra ?? null,
  } as Record<`${W}_key`, string> &
    Record<`${W}_${'svcid' | 'role_id' | 'server_code' | 'role_name' | 'extra'}`, string | null>;
}
