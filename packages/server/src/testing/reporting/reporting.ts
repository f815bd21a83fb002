import crypto from 'node:crypto';
import type { SignableValue } from '@game-platform/sdk';
import { signMd5, type TestService } from '../service.js';

/** Helpers for the reporting tests: signed 4.1 / 4.2 calls over real HTTP. */

export interface RpcAnswer {
  status: number;
  body: any;
}

export interface GameApp {
  appId: number;
  clientId: string;
  secret: string;
}

export async function createGame(svc: TestService, body: Record<string, unknown> = {}): Promise<GameApp> {
  const a = await svc.createApp(body);
  return { appId: a.appId, clientId: a.clientId, secret: a.secret };
}

export const nowSeconds = (now = Date.now()) => String(Math.floor(now / 1000));

/** A complete, valid 4.1 body (without nonce/timestamp/sign), every field of 2.1 present. */
export function reportBody(app: GameApp, overrides: Record<string, SignableValue> = {}): Record<string, SignableValue> {
  return {
    client_info: { client_id: app.clientId, ip: '203.0.113.7', DeviceID: 'dev-1' },
    reporter: { svcid: '90001', role_id: 'r1', server_code: 's1', role_name: 'Alice', extra: '{"guild":"a"}' },
    reportee: { svcid: '90002', role_id: 'r2', server_code: 's1', role_name: 'Mallory', extra: '{"guild":"b"}' },
    reasons: [{ id: 7, title: 'speed hack', extras: '{"speed":12}' }],
    user_description: 'moves too fast',
    extras: '{"match":"m-1"}',
    ...overrides,
  };
}

export async function postRaw(svc: TestService, text: string, contentType = 'application/json'): Promise<RpcAnswer> {
  const res = await svc.fetch('/svc/reporting/open/v1/player/report', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: text,
  });
  const raw = await res.text();
  return { status: res.status, body: raw ? JSON.parse(raw) : undefined };
}

/** Signs (5.1) and posts a report. */
export async function postReport(
  svc: TestService,
  app: GameApp,
  body: Record<string, SignableValue>,
  opts: { secret?: string; timestamp?: string | number; nonce?: string } = {},
): Promise<RpcAnswer> {
  const signed = signMd5(body, opts.secret ?? app.secret, opts);
  return postRaw(svc, JSON.stringify(signed));
}

/** Signs (5.1) and sends 4.2 with flat query keys. */
export async function getUploadUrl(
  svc: TestService,
  app: GameApp,
  params: Record<string, string>,
  opts: { secret?: string; timestamp?: string; nonce?: string } = {},
): Promise<RpcAnswer> {
  const signed = signMd5({ 'client_info.client_id': app.clientId, ...params }, opts.secret ?? app.secret, opts);
  const qs = new URLSearchParams(Object.entries(signed).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const res = await svc.fetch(`/svc/reporting/open/v1/upload/oss_sign_url?${qs}`);
  return { status: res.status, body: await res.json() };
}

/** 4.2 then PUT: answers the uri to cite. */
export async function uploadEvidence(
  svc: TestService,
  app: GameApp,
  content: Buffer,
  fileName = 'clip.png',
  extra: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<{ uri: string; signedUrl: string }> {
  const res = await getUploadUrl(svc, app, { file_name: fileName, file_size: String(content.length), ...extra });
  if (res.status !== 200) throw new Error(`4.2: ${res.status} ${JSON.stringify(res.body)}`);
  const put = await fetch(res.body.signed_url, {
    method: 'PUT',
    body: content,
    headers: { 'content-type': 'application/octet-stream', ...headers },
  });
  if (put.status !== 200) throw new Error(`PUT: ${put.status} ${await put.text()}`);
  return { uri: res.body.signed_url.split('?')[0], signedUrl: res.body.signed_url };
}

export function randomBytes(n: number): Buffer {
  return crypto.randomBytes(n);
}

/** The rpcStatus shape (http/error-handler.ts) with the expected google.rpc code and a message matching `message`. */
export function rpcError(
  res: RpcAnswer,
  status: number,
  grpc: number,
  reason: string,
  message?: RegExp,
): string | undefined {
  const problems: string[] = [];
  if (res.status !== status) problems.push(`HTTP ${res.status}, expected ${status}`);
  const b = res.body ?? {};
  if (b.code !== grpc) problems.push(`code ${b.code}, expected ${grpc}`);
  if (b.details?.[0]?.reason !== reason) problems.push(`reason ${b.details?.[0]?.reason}, expected ${reason}`);
  if (message && !message.test(String(b.message)))
    problems.push(`message ${JSON.stringify(b.message)} does not match ${message}`);
  return problems.length ? `${problems.join('; ')} in ${JSON.stringify(b)}` : undefined;
}

export async function countRows(
  svc: TestService,
  table: 'reports' | 'evidence_uploads' | 'report_reasons' | 'report_evidence' | 'moderation_actions',
): Promise<number> {
  const row = await svc.services.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
