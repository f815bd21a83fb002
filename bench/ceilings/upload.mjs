// Ceiling of 4.2 (GET /svc/reporting/open/v1/upload/oss_sign_url, 5.1): the
// client id, the ts window and the md5 over the query (the SDK's md5Verify),
// the one-time nonce recorded durably (as profile.mjs), then an upload
// address signed with HMAC-SHA256 (self-authenticating, as ours:
// docs/reporting.md), so nothing else is written.
import crypto from 'node:crypto';
import { md5Verify } from '../../packages/sdk/dist/index.js';
import { MD5_REFUSED, WINDOW_MS, md5App, nonceRecorder, openDatabase, serve } from './shared.mjs';

const database = await openDatabase();
const recordNonce = nonceRecorder(database);
// A KeyObject, as the service keys its HMACs: on Node 24 a Buffer key costs ~7 us more a call.
const urlKey = crypto.createSecretKey(crypto.randomBytes(32));

await serve(async (app) => {
  app.get('/svc/reporting/open/v1/upload/oss_sign_url', async (req, reply) => {
    const { sign, ...params } = req.query;
    const ts = Number(params.timestamp) * 1000;
    if (
      params['client_info.client_id'] !== md5App.clientId ||
      !(Math.abs(Date.now() - ts) <= WINDOW_MS) ||
      !md5Verify(params, md5App.secret, sign) ||
      !(await recordNonce(`md5:${md5App.clientId}`, params.nonce, ts + WINDOW_MS))
    )
      return reply.code(401).send(MD5_REFUSED);
    const key = `evidence/${crypto.randomUUID()}.mp4`;
    const expires = Math.floor(Date.now() / 1000) + 900;
    const mac = crypto
      .createHmac('sha256', urlKey)
      .update(`${key}\n${params.file_size}\n${expires}`)
      .digest('base64url');
    return {
      signed_url: `http://127.0.0.1/svc/reporting/open/v1/${key}?size=${params.file_size}&expires=${expires}&sig=${mac}`,
      ttl: '900',
    };
  });
}, database.close);
