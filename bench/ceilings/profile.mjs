// Ceiling of 4.3 (GET /api/account/v1/user/profile, 5.2): the MAC checked
// (shared.mjs macCredentials), the one-time nonce recorded durably
// (insert-if-absent, group-committed, answered after the write), then an
// answer the size of 2.2's. No token or user lookup in the database: the
// token's key and its player are in a Map.
import { MAC_REFUSED, macCredentials, nonceRecorder, openDatabase, serve } from './shared.mjs';

const database = await openDatabase();
const recordNonce = nonceRecorder(database);

// The fields of 2.2, with values as long as a guest's.
const profile = (userId) => ({
  code: 200,
  msg: 'success',
  detail: '',
  data: {
    appId: '10001',
    userId,
    userCode: 'Z8Y7X6W5V4T',
    username: 'guest_8f3a1c9d',
    nickName: null,
    avatar: null,
    loginType: 0,
    registTime: '2026-11-22T10:00:00+00:00',
    registIp: '127.0.0.1',
    source: 0,
    loginList: [0],
    isGuest: true,
    provider: ['guest'],
    openId: 'bench-device-1-8f3a1c9d',
    userRegion: 'DF',
    unionId: null,
  },
});

await serve(async (app) => {
  app.get('/api/account/v1/user/profile', async (req, reply) => {
    const mac = macCredentials(req, 'GET');
    if (!mac || !(await recordNonce(`mac:${mac.kid}`, mac.nonce, mac.expiresAt)))
      return reply.code(401).send(MAC_REFUSED);
    return profile(mac.token.userId);
  });
}, database.close);
