import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';

/**
 * A loopback OpenID Connect provider for tests: discovery, JWKS (an RS256 key made here), an authorization endpoint
 * that approves at once as `user`, and a token endpoint that checks the client's secret, the code and its PKCE
 * verifier before answering a signed ID token. Knobs make it misbehave: another audience, a forged state.
 */
export interface FixtureProvider {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Whose sign-in the next authorization approves (the preferred_username claim). */
  user: string;
  /** The ID token's aud; default the client id. */
  audience?: string;
  /** The state sent back; default the one asked for. */
  state?: string;
  /** Token requests refused (bad secret, code or verifier) so far. */
  refusals: string[];
  close(): Promise<void>;
}

export async function startOidcProvider(): Promise<FixtureProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'fixture-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { nonce: string; challenge: string; redirectUri: string; user: string }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void handle(req, res, Buffer.concat(chunks).toString()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const fixture: FixtureProvider = {
    url,
    clientId: 'console-client',
    clientSecret: crypto.randomBytes(16).toString('hex'),
    user: 'nobody',
    refusals: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    const u = new URL(req.url ?? '/', url);
    if (u.pathname === '/.well-known/openid-configuration')
      return json(res, 200, {
        issuer: url,
        authorization_endpoint: `${url}/authorize`,
        token_endpoint: `${url}/token`,
        jwks_uri: `${url}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    if (u.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
    if (u.pathname === '/authorize') {
      const q = u.searchParams;
      if (q.get('client_id') !== fixture.clientId || q.get('code_challenge_method') !== 'S256' || !q.get('nonce'))
        return json(res, 400, { error: 'invalid_request' });
      const code = crypto.randomBytes(16).toString('hex');
      codes.set(code, {
        nonce: q.get('nonce')!,
        challenge: q.get('code_challenge')!,
        redirectUri: q.get('redirect_uri')!,
        user: fixture.user,
      });
      const back = new URL(q.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', fixture.state ?? q.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (u.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(body);
      const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      const [id, secret] = basic.split(':').map(decodeURIComponent);
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
      const problem =
        id !== fixture.clientId || secret !== fixture.clientSecret
          ? 'client'
          : !grant
            ? 'code'
            : grant.challenge !== challenge
              ? 'pkce'
              : grant.redirectUri !== form.get('redirect_uri')
                ? 'redirect_uri'
                : null;
      if (problem) {
        fixture.refusals.push(problem);
        return json(res, 400, { error: 'invalid_grant', error_description: problem });
      }
      const idToken = await new SignJWT({ nonce: grant!.nonce, preferred_username: grant!.user })
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
        .setIssuer(url)
        .setSubject(`sub-${grant!.user}`)
        .setAudience(fixture.audience ?? fixture.clientId)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
      return json(res, 200, {
        access_token: 'at-' + crypto.randomUUID(),
        token_type: 'Bearer',
        expires_in: 300,
        id_token: idToken,
      });
    }
    return json(res, 404, { error: 'not_found' });
  }
  return fixture;
}
