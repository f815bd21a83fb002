import crypto from 'node:crypto';
import { freshDatabase } from './database.js';

/**
 * Environment for running the service as a separate process on the suite's
 * backend: a fresh SQLite DATA_DIR, or a fresh PostgreSQL schema (carried in
 * the connection string as `options=-c search_path=...`).
 */
export async function processEnv(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  const fresh = await freshDatabase();
  const env: Record<string, string> = { DATA_DIR: fresh.dataDir };
  if (fresh.url) {
    env.DATABASE_URL = `${fresh.url}?options=${encodeURIComponent(`-c search_path=${fresh.schema}`)}`;
    env.MASTER_KEY = crypto.randomBytes(32).toString('base64');
    env.ADMIN_TOKEN = crypto.randomBytes(24).toString('base64url');
  }
  return { env, cleanup: () => fresh.database.close() };
}
