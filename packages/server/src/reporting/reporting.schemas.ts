import { Type, type Static } from '@sinclair/typebox';
import { Int64, SafeInteger, Text } from '../http/schemas.js';

// --- wire formats of 4.1 and 4.2 (spec 2.1). Configured limits (lengths, counts) are checked in report.service.ts. ---

const Field = (maxLength: number, description?: string) => Text({ maxLength, ...(description ? { description } : {}) });
/** Pass-through strings: their configured limit (REPORT_EXTRAS_MAX_CHARS) is checked by the service. */
const PassThrough = (description: string) => Text({ maxLength: 100_000, description });

export const ClientInfo = Type.Object(
  {
    client_id: Text({ minLength: 1, maxLength: 64, description: 'Client id of the app (required in practice).' }),
    ip: Type.Optional(Field(64)),
    DeviceID: Type.Optional(
      Field(128, 'Device id; `device_id` is accepted too (the sample spelling). Stored and shown as DeviceID.'),
    ),
    device_id: Type.Optional(Field(128, 'The sample spelling of DeviceID.')),
  },
  { additionalProperties: false },
);

export const User = Type.Object(
  {
    svcid: Type.Optional(Field(64, 'Platform user id. svcid or role_id is required.')),
    role_id: Type.Optional(Field(64)),
    server_code: Type.Optional(Field(64)),
    role_name: Type.Optional(Field(128)),
    extra: Type.Optional(PassThrough('Pass-through from the game.')),
  },
  { additionalProperties: false },
);

export const Reason = Type.Object(
  {
    id: Int64({ description: 'Agreed reason id (int64: number or decimal string).' }),
    title: Type.Optional(Field(128)),
    extras: Type.Optional(PassThrough('Pass-through; `extra` is accepted too (the sample spelling).')),
    extra: Type.Optional(PassThrough('The sample spelling of extras.')),
  },
  { additionalProperties: false },
);

export const EvidenceFile = Type.Object(
  {
    name: Type.Optional(Field(255, 'File name, for display.')),
    size_byte: Type.Optional(Int64({ description: 'Size in bytes; when given it must equal the uploaded size.' })),
    uri: Text({
      minLength: 1,
      maxLength: 2048,
      description: 'The stored address: signed_url of 4.2 without its query string.',
    }),
  },
  { additionalProperties: false },
);

/** CreateReportLogReq (4.1). */
export const CreateReportLogReq = Type.Object(
  {
    client_info: ClientInfo,
    reporter: User,
    reportee: User,
    reasons: Type.Array(Reason, { minItems: 1, maxItems: 100 }),
    evidence: Type.Optional(Type.Array(EvidenceFile, { maxItems: 100 })),
    user_description: Type.Optional(PassThrough('Free text from the reporter (REPORT_DESCRIPTION_MAX_CHARS).')),
    extras: Type.Optional(PassThrough('Pass-through.')),
    nonce: Text({ description: 'One-time random string (5.1).' }),
    timestamp: Type.Union([Text(), SafeInteger()], { description: 'Unix seconds, as a string.' }),
    sign: Text({ description: 'md5 signature (5.1).' }),
  },
  { additionalProperties: false, title: 'CreateReportLogReq' },
);
export type CreateReportLogReq = Static<typeof CreateReportLogReq>;

export const CreateReportLogResp = Type.Object({}, { additionalProperties: false, title: 'CreateReportLogResp' });

/** Query of 4.2. Keys arrive flat (`client_info.client_id`); they sign the same as the nested form (5.1). */
export const UploadUrlQuery = Type.Object(
  {
    'client_info.client_id': Text({
      minLength: 1,
      maxLength: 64,
      description: 'Client id of the app (required in practice).',
    }),
    'client_info.ip': Type.Optional(Field(64)),
    'client_info.device_id': Type.Optional(Field(128)),
    'client_info.DeviceID': Type.Optional(Field(128, 'The message-definition spelling of client_info.device_id.')),
    svcid: Type.Optional(
      Field(64, 'The uploader; when given, only a report by this reporter.svcid may cite the file.'),
    ),
    file_name: Type.Optional(
      Text({
        maxLength: 255,
        description:
          'Required in practice: its extension gives the content type (EVIDENCE_CONTENT_TYPES). Never used in the object key.',
      }),
    ),
    file_size: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,19}$',
        description:
          'int64: exact size in bytes of the upload (required in practice), at most EVIDENCE_MAX_FILE_BYTES.',
      }),
    ),
    nonce: Text(),
    timestamp: Text(),
    sign: Text(),
  },
  { additionalProperties: false },
);
export type UploadUrlQuery = Static<typeof UploadUrlQuery>;

/** GetUploadOssSignedUrlResp (2.1). */
export const GetUploadOssSignedUrlResp = Type.Object(
  {
    signed_url: Type.String({
      description: 'PUT the file here, with exactly file_size bytes (and `If-None-Match: *` on the s3 backend).',
    }),
    ttl: Type.String({ description: 'int64 as a string: seconds the signed URL stays valid.' }),
  },
  { title: 'GetUploadOssSignedUrlResp' },
);
