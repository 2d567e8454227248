import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'express';
import { sendJson } from './send-json';

const BODY = { name: 'Čeština', plural: 'n == 1 ? 0 : 1', count: 3 };
const TEXT = '{"name":"Čeština","plural":"n == 1 ? 0 : 1","count":3}';

interface Answer {
  status: number;
  rawHeaders: string[];
  body: string;
}

describe('sendJson', () => {
  let server: Server;
  let lengthsMeasured: number;

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      // Counts the UTF-8 length passes over this body, sendJson's and node:http's (end() measures a string body
      // when the header is not stored yet).
      const byteLength = Buffer.byteLength;
      lengthsMeasured = 0;
      Buffer.byteLength = ((value: Parameters<typeof byteLength>[0], encoding?: BufferEncoding) => {
        if (value === TEXT) lengthsMeasured += 1;
        return byteLength(value, encoding);
      }) as typeof byteLength;
      try {
        sendJson(response as unknown as Response, 200, BODY);
      } finally {
        Buffer.byteLength = byteLength;
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  function ask(method: string): Promise<Answer> {
    const { port } = server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port, method, path: '/', agent: false }, (incoming) => {
        let body = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (body += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode!, rawHeaders: incoming.rawHeaders, body }));
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  const names = (answer: Answer) => answer.rawHeaders.filter((_, i) => i % 2 === 0);
  const header = (answer: Answer, name: string) => answer.rawHeaders[answer.rawHeaders.indexOf(name) + 1];

  it('sends the UTF-8 bytes with their length and tag, the headers in the order they were set', async () => {
    const answer = await ask('GET');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(TEXT);
    expect(names(answer)).toEqual(['ETag', 'Content-Type', 'Content-Length', 'Date', 'Connection']);
    expect(header(answer, 'Content-Type')).toBe('application/json');
    expect(header(answer, 'Content-Length')).toBe(String(Buffer.from(TEXT, 'utf8').length));
  });

  it('answers HEAD with the same headers and no body', async () => {
    const [get, head] = [await ask('GET'), await ask('HEAD')];
    expect(head.body).toBe('');
    expect(names(head)).toEqual(names(get));
    expect(header(head, 'ETag')).toBe(header(get, 'ETag'));
    expect(header(head, 'Content-Length')).toBe(header(get, 'Content-Length'));
  });

  it("measures the body's UTF-8 length once (end() would measure it again before the header is stored)", async () => {
    await ask('GET');
    expect(lengthsMeasured).toBe(1);
  });
});
