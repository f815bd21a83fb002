import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { verifyMd5Request, verifyMd5Signature } from '../auth/md5.js';
import { invalidParameter } from '../errors/app-error.js';
import { rpcErrorResponses } from '../http/schemas.js';
import type { Services } from '../services.js';
import {
  CreateReportLogReq,
  CreateReportLogResp,
  GetUploadOssSignedUrlResp,
  UploadUrlQuery,
} from './reporting.schemas.js';

const tags = ['reporting'];

/** scheme://host[:port] of this service as the caller reached it (forwarded headers only from TRUSTED_PROXIES). */
export function requestBaseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The game-facing reporting endpoints (4.1, 4.2). Errors answer rpcStatus (errors/handler.ts). */
export function reportingRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
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
      },
      async (request) => {
        const body = request.body;
        const prepared = services.reports.prepare(body);
        // The body exactly as received is what the game signed.
        // The nonce is recorded in the batch that stores the report (one round trip, not two).
        const { app, nonce } = await verifyMd5Signature(
          services,
          body as Record<string, unknown>,
          body.client_info.client_id,
        );
        await services.reports.create(app, prepared, nonce);
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
      },
      async (request) => {
        const q = request.query;
        const file = services.evidence.checkUploadFile(q.file_name, q.file_size);
        const deviceId = q['client_info.device_id'] ?? q['client_info.DeviceID'];
        if (deviceId !== q['client_info.DeviceID'] && q['client_info.DeviceID'] !== undefined) {
          throw invalidParameter(
            'client_info.DeviceID',
            'differs from client_info.device_id; send one of the two spellings',
          );
        }
        // The query exactly as received is what the game signed; flat keys sign like the nested form (5.1).
        const app = await verifyMd5Request(services, q as Record<string, unknown>, q['client_info.client_id']);
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
