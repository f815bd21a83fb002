/** A role as the game keeps it, and the check of one given from outside (seed, ops). */

export interface RoleInput {
  /** Platform user id of the owner (what the role query answers, 4.8). */
  userId: string;
  roleId: string;
  serverId: string;
  name: string;
  avatar: string;
  roleLv: number | null;
  serverName: string | null;
}

const ID = /^[A-Za-z0-9_.:-]{1,64}$/;

/** Checks a role object; answers the RoleInput or the problem, naming the field. */
export function parseRoleInput(v: unknown): RoleInput | string {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'role: must be an object';
  const o = v as Record<string, unknown>;
  for (const k of ['userId', 'roleId', 'serverId'] as const) {
    if (typeof o[k] !== 'string' || !ID.test(o[k] as string)) return `${k}: must be 1-64 of A-Z a-z 0-9 _ . : -`;
  }
  if (typeof o.name !== 'string' || o.name === '' || o.name.length > 64)
    return 'name: must be a string of 1-64 characters';
  if (o.avatar !== undefined && (typeof o.avatar !== 'string' || o.avatar.length > 2048))
    return 'avatar: must be a string (URL)';
  if (o.roleLv !== undefined && o.roleLv !== null && !(Number.isSafeInteger(o.roleLv) && (o.roleLv as number) >= 0))
    return 'roleLv: must be a whole number';
  if (
    o.serverName !== undefined &&
    o.serverName !== null &&
    (typeof o.serverName !== 'string' || o.serverName.length > 64)
  )
    return 'serverName: must be a string';
  return {
    userId: o.userId as string,
    roleId: o.roleId as string,
    serverId: o.serverId as string,
    name: o.name,
    avatar: (o.avatar as string | undefined) ?? '',
    roleLv: (o.roleLv as number | null | undefined) ?? null,
    serverName: (o.serverName as string | null | undefined) ?? null,
  };
}
