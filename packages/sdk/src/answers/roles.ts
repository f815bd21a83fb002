/** Answers to the role query (4.8) and role list query (4.9), and their query parameters. */
import { PayloadParseError } from '../notifications/fields.js';
import type { Answer } from './answer.js';

/** 2.6 role query object. Without `userId` the platform blocks the payment (4.8). */
export interface Role {
  /** Platform user id that owns the role. */
  userId: string;
  roleId: string;
  /** Nickname to display. */
  name: string;
  avatar: string;
  roleLv?: number | null;
  serverId?: string | null;
  serverName?: string | null;
}

/** 2.6 role list entry. */
export interface RoleListEntry {
  roleId: string;
  name: string;
  avatar: string;
  roleLv?: number | null;
  serverId: string;
  serverName?: string | null;
}

export interface RoleListBody {
  code: number;
  /** Player-facing. */
  msg: string;
  /** For developers. */
  detail: string;
  results: Required<RoleListEntry>[];
}

const nn = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

function requireText(v: unknown, field: string): void {
  if (typeof v !== 'string' || v === '') throw new TypeError(`${field} must be a non-empty string`);
}

/** 4.8: HTTP 200 with the role. Throws TypeError when `userId` or `roleId` is empty (the platform would block the payment). */
export function roleQueryAnswer(role: Role): Answer<Required<Role>> {
  requireText(role.userId, 'role.userId');
  requireText(role.roleId, 'role.roleId');
  return {
    status: 200,
    body: {
      userId: role.userId,
      roleId: role.roleId,
      name: role.name,
      avatar: role.avatar,
      roleLv: nn(role.roleLv),
      serverId: nn(role.serverId),
      serverName: nn(role.serverName),
    },
  };
}

/**
 * 4.9: HTTP 200 with the roles; with no roles, HTTP 401 with empty `results` (the
 * spec's answer for a user id that has no role). `msg` is shown to the player.
 */
export function roleListAnswer(
  roles: readonly RoleListEntry[],
  o: { msg?: string; detail?: string } = {},
): Answer<RoleListBody> {
  if (roles.length === 0) {
    return {
      status: 401,
      body: { code: 401, msg: o.msg ?? 'No role found.', detail: o.detail ?? 'the user has no role', results: [] },
    };
  }
  const results = roles.map((r, i) => {
    requireText(r.roleId, `roles[${i}].roleId`);
    return {
      roleId: r.roleId,
      name: r.name,
      avatar: r.avatar,
      roleLv: nn(r.roleLv),
      serverId: r.serverId,
      serverName: nn(r.serverName),
    };
  });
  return { status: 200, body: { code: 200, msg: o.msg ?? 'success', detail: o.detail ?? '', results } };
}

/** 4.9 failure other than "no role": a non-200 status whose `msg` the player sees. */
export function roleListFailure(status: number, msg: string, detail = '', code = status): Answer<RoleListBody> {
  if (!Number.isInteger(status) || status === 200 || status < 400 || status > 599)
    throw new RangeError(`roleListFailure: status must be a 4xx or 5xx, got ${status}`);
  return { status, body: { code, msg, detail, results: [] } };
}

type Query = URLSearchParams | Readonly<Record<string, unknown>>;

function param(q: Query, k: string, required: true): string;
function param(q: Query, k: string, required: false): string | undefined;
function param(q: Query, k: string, required: boolean): string | undefined {
  const v: unknown = q instanceof URLSearchParams ? q.getAll(k) : q[k];
  if (Array.isArray(v) && v.length > 1) throw new PayloadParseError(k, 'must be given once');
  return text(Array.isArray(v) ? v[0] : v, k, required);
}

function text(v: unknown, k: string, required: boolean): string | undefined {
  if (v === undefined || v === '') {
    if (required) throw new PayloadParseError(k, 'is required');
    return undefined;
  }
  if (typeof v !== 'string') throw new PayloadParseError(k, 'must be a string');
  return v;
}

/** 4.8 query: `roleId` and `serverId`, both required. Accepts `verifiedCallOf(req).query` or a parsed query object. */
export function parseRoleQuery(query: Query): { roleId: string; serverId: string } {
  return { roleId: param(query, 'roleId', true), serverId: param(query, 'serverId', true) };
}

/** 4.9 query: `userId` (platform user id, required) and `serverId` (optional). */
export function parseRoleListQuery(query: Query): { userId: string; serverId: string | null } {
  return { userId: param(query, 'userId', true), serverId: param(query, 'serverId', false) ?? null };
}
