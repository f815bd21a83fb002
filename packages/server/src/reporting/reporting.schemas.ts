import { Type, type Static } from '@sinclair/typebox';
import { Int64 } from '../http/schemas.js';

// --- wire formats of 4.1 and 4.2 (spec 2.1). Configured limits (lengths, counts) are checked in report.service.ts. ---

const Text = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });
/** Pass-through strings: their configured limit (REPORT_EXTRAS_MAX_CHARS) is checked by the service. */
const PassThrough = (description: string) => Type.String({ maxLength: 100_000, description });

export const ClientInfo = Type.Object({
  client_id: Type.String({ minLength: 1, maxLength: 64, description: 'Client id of the app (required in practice).' }),
  ip: Type.Optional(Text(64)),
  DeviceID: Type.Optional(Text(128, 'Device id; `device_id` is accepted too (the sample spelling). Stored and shown as DeviceID.')),
  device_id: Type.Optional(Text(128, 'The sample spelling of DeviceID.')),
}, { additionalProperties: false });

export const User = Type.Object({
  svcid: Type.Optional(Text(64, 'Platform user id. svcid or role_id is required.')),
  role_id: Type.Optional(Text(64)),
  server_code: Type.Optional(Text(64)),
  role_name: Type.Optional(Text(128)),
  extra: Type.Optional(PassThrough('Pass-through from the game.')),
}, { additionalProperties: false });

export const Reason = Type.Object({
  id: Int64({ description: 'Agreed reason id (int64: number or decimal string).' }),
  title: Type.Optional(Text(128)),
  extras: Type.Optional(PassThrough('Pass-through; `extra` is accepted too (the sample spelling).')),
  extra: Type.Optional(PassThrough('The sample spelling of extras.')),
}, { additionalProperties: false });

export const EvidenceFile = Type.Object({
  name: Type.Optional(Text(255, 'File name, for display.')),
  size_byte: Type.Optional(Int64({ description: 'Size in bytes; when given it must equal the uploaded size.' })),
  uri: Type.String({ minLength: 1, maxLength: 2048, description: 'The stored address: signed_url of 4.2 without its query string.' }),
}, { additionalProperties: false });

/** CreateReportLogReq (4.1). */
export const CreateReportLogReq = Type.Object({
  client_info: ClientInfo,
  reporter: User,
  reportee: User,
  reasons: Type.Array(Reason, { minItems: 1, maxItems: 100 }),
  evidence: Type.Optional(Type.Array(EvidenceFile, { maxItems: 100 })),
  user_description: Type.Optional(PassThrough('Free text from the reporter (REPORT_DESCRIPTION_MAX_CHARS).')),
  extras: Type.Optional(PassThrough('Pass-through.')),
  nonce: Type.String({ description: 'One-time random string (5.1).' }),
  timestamp: Type.Union([Type.String(), Type.Integer()], { description: 'Unix seconds, as a string.' }),
  sign: Type.String({ description: 'md5 signature (5.1).' }),
}, { additionalProperties: false, title: 'CreateReportLogReq' });
export type CreateReportLogReq = Static<typeof CreateReportLogReq>;

export const CreateReportLogResp = Type.Object({}, { additionalProperties: false, title: 'CreateReportLogResp' });

/** Query of 4.2. Keys arrive flat (`client_info.client_id`); they sign the same as the nested form (5.1). */
export const UploadUrlQuery = Type.Object({
  'client_info.client_id': Type.String({ minLength: 1, maxLength: 64, description: 'Client id of the app (required in practice).' }),
  'client_info.ip': Type.Optional(Text(64)),
  'client_info.device_id': Type.Optional(Text(128)),
  'client_info.DeviceID': Type.Optional(Text(128, 'The message-definition spelling of client_info.device_id.')),
  svcid: Type.Optional(Text(64, 'The uploader; when given, only a report by this reporter.svcid may cite the file.')),
  file_name: Type.Optional(Type.String({ maxLength: 255, description: 'Required in practice: its extension gives the content type (EVIDENCE_CONTENT_TYPES). Never used in the object key.' })),
  file_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'int64: exact size in bytes of the upload (required in practice), at most EVIDENCE_MAX_FILE_BYTES.' })),
  nonce: Type.String(),
  timestamp: Type.String(),
  sign: Type.String(),
}, { additionalProperties: false });
export type UploadUrlQuery = Static<typeof UploadUrlQuery>;

/** GetUploadOssSignedUrlResp (2.1). */
export const GetUploadOssSignedUrlResp = Type.Object({
  signed_url: Type.String({ description: 'PUT the file here, with exactly file_size bytes (and `If-None-Match: *` on the s3 backend).' }),
  ttl: Type.String({ description: 'int64 as a string: seconds the signed URL stays valid.' }),
}, { title: 'GetUploadOssSignedUrlResp' });
