// A local game server for the delivery benchmarks: accepts every callback with
// 204 and counts them. GET /count answers how many it has taken.
import http from 'node:http';

let count = 0;
const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ count }));
    return;
  }
  if (req.method === 'GET') { res.writeHead(200); res.end('ok'); return; }
  req.resume();
  req.on('end', () => { count++; res.writeHead(204); res.end(); });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
