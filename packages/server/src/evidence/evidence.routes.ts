import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Readable } from 'node:stream';
import { rpcErrorResponses } from '../http/schemas.js';
import { IdParam } from '../http/route-params.js';
import type { EvidenceService } from './evidence.service.js';
import { EMBEDDED_ROUTE_PREFIX } from './embedded-storage.js';

const tags = ['reporting'];

const ObjectParams = Type.Object({
  appId: IdParam(),
  // 64 hex: a self-authenticating id (object-id.ts); 32 hex: an id issued before those.
  file: Type.String({
    pattern: '^(?:[0-9a-f]{32}|[0-9a-f]{64})\\.[a-z0-9]{1,16}$',
    description: 'Object file name, as built by the service.',
  }),
});
const Expires = Type.String({ pattern: '^[0-9]{1,12}$', description: 'Unix seconds after which the URL is refused.' });
const Signature = Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'HMAC-SHA256 token (base64url).' });

/**
 * The embedded backend's object routes (registered only with
 * EVIDENCE_BACKEND=embedded): the PUT that a 4.2 signed URL points at, and
 * the GET behind moderators' download links. Binary bodies are accepted only
 * in this plugin's scope, up to EVIDENCE_MAX_FILE_BYTES.
 */
export function evidenceRoutes(services: { evidence: EvidenceService }): FastifyPluginAsyncTypebox {
  const { evidence } = services;
  return async (app) => {
    // Any content type; the body stays a stream, written to disk as it arrives (evidence.service.ts counts the bytes).
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { bodyLimit: evidence.limits.maxFileBytes }, (_request, payload, done) =>
      done(null, payload),
    );

    app.put(
      `${EMBEDDED_ROUTE_PREFIX}evidence/:appId/:file`,
      {
        bodyLimit: evidence.limits.maxFileBytes,
        schema: {
          tags,
          summary: 'Upload one evidence file to a signed URL of 4.2 (embedded storage)',
          description:
            'Send exactly `size` bytes (Content-Length required). An upload larger than declared, after expiry, with a changed URL, or to a URL already used is refused; an object is never overwritten.',
          params: ObjectParams,
          querystring: Type.Object(
            { expires: Expires, size: Type.String({ pattern: '^[0-9]{1,15}$' }), signature: Signature },
            { additionalProperties: false },
          ),
          response: {
            200: Type.String({ maxLength: 0, description: 'Empty; the ETag header is the md5 of the content.' }),
            ...rpcErrorResponses,
          },
        },
      },
      async (request, reply) => {
        const header = request.headers['content-length'];
        const contentLength = header !== undefined && /^[0-9]{1,15}$/.test(header) ? Number(header) : undefined;
        const body = (request.body ?? request.raw) as Readable;
        const { etag } = await evidence.acceptUpload({
          appId: request.params.appId,
          file: request.params.file,
          ...request.query,
          contentLength,
          body,
        });
        return reply.code(200).header('etag', etag).send('');
      },
    );

    app.get(
      `${EMBEDDED_ROUTE_PREFIX}evidence/:appId/:file`,
      {
        schema: {
          tags,
          summary: 'Download one evidence file through a moderator link (embedded storage)',
          params: ObjectParams,
          querystring: Type.Object({ expires: Expires, signature: Signature }, { additionalProperties: false }),
        },
      },
      async (request, reply) => {
        const file = await evidence.openDownload({
          appId: request.params.appId,
          file: request.params.file,
          ...request.query,
        });
        return reply
          .header('content-type', file.contentType)
          .header('content-length', String(file.size))
          .header('content-disposition', `attachment; filename="${file.downloadName}"`)
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(file.stream);
      },
    );
  };
}
