import type { ActionFilter, AdminActionsRepository } from './admin-actions.repository.js';
import { invalidParameter } from '../errors/app-error.js';
import type { AdminAction } from './admin-audit.schemas.js';
import { RefusalBound, RefusalMetrics } from './refusals.js';

/**
 * Who sent an admin request: the `X-Operator` header, or null when absent. Header values are ASCII, so a name
 * outside printable ASCII is sent percent-encoded (UTF-8, as encodeURIComponent does; the console always does);
 * decoded, it is 1-100 characters with no control characters.
 */
export function operatorOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const raw = (Array.isArray(header) ? header.join(',') : header).trim();
  const problem = "must be the operator's name: 1-100 characters, percent-encoded (UTF-8) outside printable ASCII";
  if (!/^[\x20-\x7e]{1,600}$/.test(raw)) throw invalidParameter('X-Operator', problem);
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw invalidParameter('X-Operator', problem);
  }
  const name = decoded.trim();
  if (name.length === 0 || [...name].length > 100 || /\p{Cc}/u.test(decoded))
    throw invalidParameter('X-Operator', problem);
  return name;
}

export interface ActionStart {
  operator: string | null;
  operatorId?: number | null;
  note?: string | null;
  method: string;
  route: string;
  path: string;
  ip: string;
  requestId: string;
}

/**
 * The audit trail of the admin API: each request that changes something (any
 * method but GET and HEAD) is recorded before its handler runs, so the record
 * is durable even if the change is, and completed with its HTTP status after
 * the answer; sign-ins, refusals and account changes are recorded as events (operators/). The CLI works on the
 * database directly and is not recorded here.
 */
export class AdminAuditService {
  readonly refusalMetrics = new RefusalMetrics();
  readonly #bound: RefusalBound;

  constructor(
    private readonly actions: AdminActionsRepository,
    private readonly now: () => number = Date.now,
    /** Refusals recorded a minute (AUDIT_REFUSALS_PER_MINUTE): refusals.ts. */
    refusalsPerMinute = 60,
    /** Where `list` reads: Database.reads (the read replica), so the trail may lag its writes by a moment. */
    private readonly listed: Pick<AdminActionsRepository, 'list'> = actions,
  ) {
    this.#bound = new RefusalBound(refusalsPerMinute, now);
  }

  async start(a: ActionStart): Promise<number> {
    return this.actions.insert({
      at: this.now(),
      operator: a.operator,
      operator_id: a.operatorId ?? null,
      note: a.note ?? null,
      method: a.method,
      route: a.route,
      path: a.path,
      ip: a.ip,
      request_id: a.requestId,
      status: null,
      finished_at: null,
    });
  }

  /**
   * An event (sign-in, failed sign-in, token or role change, refusal), recorded whole. A refusal (status 400 and
   * up) is counted always and recorded within the bound of refusals.ts, so a flood of them cannot fill the trail.
   */
  async recordEvent(e: {
    event: string;
    operator: string;
    operatorId: number | null;
    note: string | null;
    status: number;
    ctx: { ip: string; requestId: string; method: string; route: string; path: string };
  }): Promise<void> {
    if (e.status >= 400) {
      const area = e.ctx.route.startsWith('/portal/') ? 'portal' : 'admin';
      this.refusalMetrics.refusals.inc({ area, event: e.event });
      if (!this.#bound.take(e.ctx.ip)) {
        this.refusalMetrics.dropped.inc({ area });
        return;
      }
    }
    const at = this.now();
    await this.actions.insert({
      at,
      operator: e.operator,
      operator_id: e.operatorId,
      event: e.event,
      note: e.note,
      method: e.ctx.method,
      route: e.ctx.route,
      path: e.ctx.path,
      ip: e.ctx.ip,
      request_id: e.ctx.requestId,
      status: e.status,
      finished_at: at,
    });
  }

  async finish(actionId: number, status: number): Promise<void> {
    await this.actions.finish(actionId, status, this.now());
  }

  async list(f: ActionFilter): Promise<AdminAction[]> {
    return (await this.listed.list(f)).map((r) => ({
      actionId: r.action_id,
      at: new Date(Number(r.at)).toISOString(),
      operator: r.operator,
      event: r.event,
      note: r.note,
      method: r.method,
      route: r.route,
      path: r.path,
      ip: r.ip,
      requestId: r.request_id,
      status: r.status,
      finishedAt: r.finished_at === null ? null : new Date(Number(r.finished_at)).toISOString(),
    }));
  }
}
