// A local game server for the benchmarks: accepts every callback with 204 and
// counts them (GET /count answers how many); answers the role query (4.8) with
// the role id as the owning user id, and allows every pre-order check (4.10).
import http from 'node:http';

let count = 0;
const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ count }));
    return;
  }
  if (req.method === 'GET' && req.url.startsWith('/role?')) {
    const q = new URL(req.url, 'http://x').searchParams;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        userId: q.get('roleId'),
        roleId: q.get('roleId'),
        name: 'Bench Hero',
        avatar: 'https://game.example/a.png',
        roleLv: 30,
        serverId: q.get('serverId'),
        serverName: 'S1',
      }),
    );
    return;
  }
  if (req.method === 'GET') {
    res.writeHead(200);
    res.end('ok');
    return;
  }
  if (req.url === '/pre-order') {
    req.resume();
    req.on('end', () => {
      res.writeHead(200);
      res.end();
    });
    return;
  }
  req.resume();
  req.on('end', () => {
    count++;
    res.writeHead(204);
    res.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
