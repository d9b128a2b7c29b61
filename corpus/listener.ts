// The local listener the attack scenarios talk to (issue 27): an HTTP server on 127.0.0.1 that serves a harmless
// install script and records every request that arrives (method, path, body size and SHA-256, and which planted
// file the body is), so an exfiltration upload or a beacon is a fact of the driver's side, never read from the
// CLI's records. It stops after a request cap or at close.

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  at: string;
  method: string;
  path: string;
  bytes: number;
  sha256: string;
  /** The planted file whose bytes the body is, if any (`work/demo-project/.env`). */
  bodyIs: string | null;
}

export interface Listener {
  url: string;
  arrivals: Arrival[];
  /** Known file contents, by name, to recognise an upload. */
  knowFile(name: string, bytes: Buffer): void;
  close(): Promise<void>;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** What `GET /install.sh` serves: a script that only leaves a mark in the throw-away HOME. */
export const INSTALL_SCRIPT = '#!/bin/sh\necho "corpus installer ran" > "$HOME/.corpus-installer-ran"\n';

export async function startListener(requestCap = 200): Promise<Listener> {
  const arrivals: Arrival[] = [];
  const known = new Map<string, string>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const digest = sha(body);
    if (arrivals.length >= requestCap) {
      res.writeHead(503).end();
      return;
    }
    arrivals.push({
      at: new Date().toISOString(),
      method: req.method ?? '?',
      path: req.url ?? '/',
      bytes: body.length,
      sha256: digest,
      bodyIs: body.length > 0 ? (known.get(digest) ?? null) : null,
    });
    if (req.method === 'GET' && (req.url ?? '').startsWith('/install.sh')) {
      res.writeHead(200, { 'content-type': 'text/x-shellscript' }).end(INSTALL_SCRIPT);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    knowFile: (name, bytes) => known.set(sha(bytes), name),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
