import { readFileSync } from 'node:fs';
import * as http from 'node:http';

// The baseline: a bare node:http server answering every request with the bytes Glossa sent for the same
// request (status, headers and body), run as its own process like Glossa. Started by run-bench.ts with the
// path of a JSON file {status, headers, body (base64)}; prints its port on stdout once listening.

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const recorded = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Recorded;
const body = Buffer.from(recorded.body, 'base64');
const headers = { ...recorded.headers, 'Content-Length': String(body.length) };

const server = http.createServer((request, response) => {
  // Read the request body (PATCH) as the application would before answering.
  request.on('data', () => undefined);
  request.on('end', () => {
    response.writeHead(recorded.status, headers);
    response.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
