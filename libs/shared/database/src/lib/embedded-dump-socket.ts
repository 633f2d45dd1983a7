import { createConnection, createServer } from 'node:net';
import type { Server } from 'node:net';
import { rm } from 'node:fs/promises';

/**
 * pg_dump for another process: PGlite's pg_dump runs inside the process
 * that holds the database, so the CLI asks a running gateway for a dump
 * over a Unix socket beside the database's own (owner-only directory).
 * Request: the arguments as one JSON line. Answer: `OK\n` and the dump, or
 * `ERROR <message>\n`.
 */
export async function serveDumps(
  path: string,
  dump: (args: readonly string[]) => Promise<string>,
): Promise<Server> {
  await rm(path, { force: true });
  const server = createServer((socket) => {
    let request = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      request += chunk;
      const end = request.indexOf('\n');
      if (end < 0) return;
      socket.removeAllListeners('data');
      let args: string[];
      try {
        args = JSON.parse(request.slice(0, end)) as string[];
        if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
          throw new Error('arguments must be a list of strings');
      } catch (error) {
        socket.end(`ERROR ${(error as Error).message}\n`);
        return;
      }
      dump(args).then(
        (text) => socket.end(`OK\n${text}`),
        (error: unknown) =>
          socket.end(
            `ERROR ${error instanceof Error ? error.message : String(error)}\n`,
          ),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return server;
}

/** A dump from the process serving `path` (see `serveDumps`). */
export function requestDump(
  path: string,
  args: readonly string[],
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = createConnection(path, () =>
      socket.write(`${JSON.stringify(args)}\n`),
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', (error) =>
      reject(
        new Error(
          `The running gateway did not answer the backup request (${error.message}); is it older than this CLI? Restart it, then back up.`,
        ),
      ),
    );
    socket.once('end', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      if (answer.startsWith('OK\n')) resolve(answer.slice(3));
      else
        reject(
          new Error(
            answer.startsWith('ERROR ')
              ? answer.slice(6).trim()
              : 'The running gateway closed the backup request',
          ),
        );
    });
  });
}
