import type { FastifyRequest } from 'fastify';
import { safeEqual } from '../crypto/secret-box.js';
import { AppError } from '../errors/app-error.js';

/** onRequest hook of the /admin/v1 scope: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
export function adminAuth(adminToken: string) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match || !safeEqual(match[1]!, adminToken)) {
      throw new AppError(
        'ADMIN_UNAUTHORIZED',
        match ? 'the bearer token is not the admin token' : 'send Authorization: Bearer <ADMIN_TOKEN>',
        {
          headers: { 'www-authenticate': 'Bearer realm="admin"' },
        },
      );
    }
  };
}
