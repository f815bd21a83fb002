import { JWT } from 'google-auth-library';

/** The fields of a service account's JSON key that signing in needs (Cloud console > IAM > Service accounts > Keys). */
export interface GoogleServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

/** Google's OAuth 2.0 token endpoint, which google-auth-library 11 writes into its token requests. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const ANDROID_PUBLISHER_SCOPE = 'https://www.googleapis.com/auth/androidpublisher';

export function parseServiceAccountKey(key: GoogleServiceAccountKey | string): GoogleServiceAccountKey {
  const parsed = (typeof key === 'string' ? JSON.parse(key) : key) as Partial<GoogleServiceAccountKey>;
  if (typeof parsed.client_email !== 'string' || typeof parsed.private_key !== 'string')
    throw new Error('a service account key needs client_email and private_key');
  return parsed as GoogleServiceAccountKey;
}

/**
 * A google-auth-library JWT client for the service account: it signs the JWT-bearer assertion and trades it for an
 * access token, caching and refreshing it. google-auth-library 11 has the token URL as a constant
 * (gtoken/getToken.ts), with no option; its requests go through the client's Gaxios transporter, whose request
 * interceptors are the supported hook, so one interceptor sends the token request to `tokenUrl` (a loopback server
 * in tests) when it is set. The assertion's audience stays Google's token URL, as Google requires.
 */
export function serviceAccountClient(
  key: GoogleServiceAccountKey | string,
  options: { tokenUrl?: string; scopes?: string[] } = {},
): JWT {
  const account = parseServiceAccountKey(key);
  const client = new JWT({
    email: account.client_email,
    key: account.private_key,
    ...(account.private_key_id ? { keyId: account.private_key_id } : {}),
    scopes: options.scopes ?? [ANDROID_PUBLISHER_SCOPE],
  });
  const tokenUrl = options.tokenUrl;
  if (tokenUrl && tokenUrl !== GOOGLE_TOKEN_URL) {
    client.transporter.interceptors.request.add({
      resolved: async (request) => {
        if (String(request.url) === GOOGLE_TOKEN_URL) request.url = new URL(tokenUrl);
        return request;
      },
    });
  }
  return client;
}
