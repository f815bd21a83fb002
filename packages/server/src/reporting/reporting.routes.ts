import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { invalidParameter } from '../errors/app-error.js';
import { rpcErrorResponses } from '../http/schemas.js';
import { requestBaseUrl } from '../http/request-base-url.js';
import type { AppRecord } from '../apps/apps.service.js';
import type { Md5Scheme } from '../auth/md5.js';
import { callbackHook } from '../auth/caller.js';
import type { EvidenceService, UploadFile } from '../evidence/evidence.service.js';
import type { PreparedReport, ReportService } from './report.service.js';
import {
  CreateReportLogReq,
  CreateReportLogResp,
  GetUploadOssSignedUrlResp,
  UploadUrlQuery,
} from './reporting.schemas.js';

const tags = ['reporting'];

/** The game-facing reporting endpoints (4.1, 4.2). Errors answer rpcStatus (http/error-handler.ts). */
export function reportingRoutes(services: {
  md5: Md5Scheme<AppRecord>;
  reports: ReportService;
  evidence: EvidenceService;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    // The md5 hook records 4.1's nonce in the batch that stores the report (one round trip, not two).
    const md5Report = services.md5.hook({
      from: 'body',
      clientId: (body) => (body.client_info as { client_id?: unknown } | undefined)?.client_id,
      recordNonce: 'store',
    });
    const md5Upload = services.md5.hook({
      from: 'query',
      clientId: (query) => query['client_info.client_id'],
      recordNonce: 'hook',
    });
    // Checks that need neither the database nor the app run before the signature (400 naming the field first).
    const prepared = new WeakMap<FastifyRequest, PreparedReport>();
    const uploads = new WeakMap<FastifyRequest, { file: UploadFile; deviceId: string | undefined }>();

    app.post(
      '/svc/reporting/open/v1/player/report',
      {
        schema: {
          tags,
          summary: 'Report a player (4.1)',
          description:
            'md5-signed (5.1) body. Evidence must have been uploaded through 4.2 first. 200 with `{}`; a repeat within the duplicate window is answered 200 and stored once. See docs/reporting.md.',
          body: CreateReportLogReq,
          response: { 200: CreateReportLogResp, ...rpcErrorResponses },
        },
        preHandler: [
          callbackHook((request) => {
            prepared.set(request, services.reports.prepare(request.body as CreateReportLogReq));
          }),
          // The body exactly as received is what the game signed.
          md5Report,
        ],
      },
      async (request) => {
        const { app, nonce } = services.md5.caller(request);
        await services.reports.create(app.appId, prepared.get(request)!, nonce!);
        return {};
      },
    );

    app.get(
      '/svc/reporting/open/v1/upload/oss_sign_url',
      {
        schema: {
          tags,
          summary: 'Get a signed upload URL for one evidence file (4.2)',
          description:
            'md5-signed (5.1) query. PUT exactly `file_size` bytes to `signed_url` within `ttl` seconds, then cite `signed_url` without its query string as `evidence[].uri` in 4.1.',
          querystring: UploadUrlQuery,
          response: { 200: GetUploadOssSignedUrlResp, ...rpcErrorResponses },
        },
        preHandler: [
          callbackHook((request) => {
            const query = request.query as UploadUrlQuery;
            const file = services.evidence.checkUploadFile(query.file_name, query.file_size);
            uploads.set(request, { file, deviceId: uploadDeviceId(query) });
          }),
          // The query exactly as received is what the game signed; flat keys sign like the nested form (5.1).
          md5Upload,
        ],
      },
      async (request) => {
        const q = request.query;
        const { file, deviceId } = uploads.get(request)!;
        const { app } = services.md5.caller(request);
        const { signedUrl, ttl } = await services.evidence.issueUploadUrl({
          appId: app.appId,
          file,
          svcid: q.svcid,
          clientIp: q['client_info.ip'],
          deviceId,
          requestBaseUrl: requestBaseUrl(request),
        });
        return { signed_url: signedUrl, ttl };
      },
    );
  };
}

/** The device id of 4.2 in either spelling; both given must agree. */
function uploadDeviceId(q: { 'client_info.device_id'?: string; 'client_info.DeviceID'?: string }): string | undefined {
  const deviceId = q['client_info.device_id'] ?? q['client_info.DeviceID'];
  if (deviceId !== q['client_info.DeviceID'] && q['client_info.DeviceID'] !== undefined) {
    throw invalidParameter('client_info.DeviceID', 'differs from client_info.device_id; send one of the two spellings');
  }
  return deviceId;
}
