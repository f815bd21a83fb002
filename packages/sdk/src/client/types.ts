/** Wire types of the service-hosted endpoints a game server calls (spec 2.1, 2.2, 2.6, 4.1-4.6). */
import type { Int64 } from './json.js';

/** The player's MAC credentials from the client login (5.2): `kid` is the access token. */
export interface PlayerToken {
  kid: string;
  macKey: string;
}

/** 2.1 ClientInfo. `client_id` defaults to the client's clientId. Both spellings of the device id occur in the spec. */
export interface ReportClientInfo {
  client_id?: string;
  ip?: string;
  device_id?: string;
  DeviceID?: string;
}

/** 2.1 User (`reporter`, `reportee`). */
export interface ReportUser {
  svcid?: string;
  role_id?: string;
  server_code?: string;
  role_name?: string;
  /** Pass-through, e.g. a JSON-encoded string. */
  extra?: string;
}

/** 2.1 Reason. `id` is an int64: give a bigint or decimal string past 2^53. */
export interface ReportReason {
  id: Int64;
  title?: string;
  extras?: string;
}

/** 2.1 File. `uri` is the stored address of an uploaded file (UploadUrl.uri). */
export interface EvidenceFile {
  name?: string;
  size_byte?: Int64;
  uri: string;
}

/** 4.1 CreateReportLogReq without the signing fields (nonce, timestamp, sign are added). */
export interface ReportRequest {
  client_info?: ReportClientInfo;
  reporter: ReportUser;
  reportee: ReportUser;
  reasons: ReportReason[];
  evidence?: EvidenceFile[];
  user_description?: string;
  extras?: string;
}

/** 4.2 query without the signing fields. */
export interface UploadUrlRequest {
  client_info?: ReportClientInfo;
  svcid?: string;
  file_name?: string;
  file_size?: Int64;
}

/** 2.1 GetUploadOssSignedUrlResp, plus `uri`: the stored address to cite in `evidence[].uri` after the upload. */
export interface UploadUrl {
  signed_url: string;
  /** int64 as a string. */
  ttl: string;
  /** `signed_url` without its query string. */
  uri: string;
}

/** 2.2 account profile (4.3). */
export interface Profile {
  appId: string;
  userId: string;
  userCode: string;
  username: string;
  nickName: string | null;
  avatar: string | null;
  /** See LoginType. */
  loginType: number;
  /** ISO 8601 with offset. */
  registTime: string;
  registIp: string;
  /** 0 ordinary user, 1 migrated user. */
  source: number;
  loginList: unknown[];
  isGuest: boolean;
  /** Typed boolean in the spec's table, an array of strings in its sample. */
  provider: string[] | boolean;
  openId: string;
  /** ISO 3166-1 alpha-2 overseas (`DF` when unknown); empty on the mainland. */
  userRegion: string;
  unionId: string | null;
}

/** 4.4 `loginType`: the lowercase provider name of the login. */
export type SvcIdLoginType = string;

/** 2.6 pending supplement order (4.5 `data.list`). */
export interface PendingSupplementOrder {
  /** Platform refund order number. */
  tradeNo: number;
  productId: string;
  currency: string;
  outTradeNo: string;
  bankTradeNo: string | null;
  refundAmount: number;
  channelId: number;
  /** See Channel. */
  channelType: number;
  /** 1 = pending supplement. */
  supplyStatus: number;
  /** See Platform. */
  platform: number;
}

/** 4.6 body without appId (from the client options unless given) and the signing fields. */
export interface ConsumptionNotice {
  userId: string;
  roleId: string;
  serverId: string;
  productCode: string;
  appId?: number;
}

/** A store purchase's consumption, for PlatformClient.reportStoreConsumption (issue 27). */
export interface StoreConsumptionReport {
  /** The order's trxNo (an App Store or Google Play payment). */
  trxNo: number;
  /** Milliunits consumed: 0 to 100000 (Apple's consumptionPercentage). */
  consumptionPercentage: number;
  appId?: number;
}

/** Query of the pull reconciliation endpoint (an extension). Extra parameters are passed through and signed. */
export interface EventsQuery {
  /** Unix ms: notifications created at or after. */
  since?: number | bigint | string;
  /** `nextCursor` of the previous page. */
  cursor?: string | number | bigint;
  limit?: number;
  [param: string]: string | number | bigint | undefined;
}

/** One notification of the pull reconciliation endpoint. `body` is the notification exactly as signed and POSTed: parse it with parseNotification. */
export interface PulledEvent {
  notifyId: number;
  type: string;
  body: string;
  [field: string]: unknown;
}

export interface EventsPage {
  list: PulledEvent[];
  nextCursor: string | null;
  [field: string]: unknown;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
}
