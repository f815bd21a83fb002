import { invalidParameter } from '../errors/app-error.js';

/**
 * The URL rules of 4.7 (and 8): absolute http(s), reachable from outside, no
 * query string and no fragment. Applied to every URL the platform calls.
 */
export function checkCallbackUrl(field: string, value: string): string {
  if (value.includes('?')) throw invalidParameter(field, 'must carry no query string (spec 4.7)');
  if (value.includes('#')) throw invalidParameter(field, 'must carry no fragment');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParameter(field, 'must be an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidParameter(field, 'must be an http or https URL');
  if (!url.hostname) throw invalidParameter(field, 'must name a host');
  if (url.username || url.password) throw invalidParameter(field, 'must carry no user name or password');
  return url.toString();
}
