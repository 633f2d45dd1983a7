// Parse Server on the benchmark's PostgreSQL: the "at least 3x Parse Server"
// comparison of the marketplace contract. Parse Server is not a dependency of
// Quitanda (it is large and needs install scripts): `npm run bench` installs
// parse-server@9.10.0 once outside git (bench/lib/parse-server-install.ts)
// unless PARSE_SERVER_DIR points at an install already, and runs without it
// when told `--no-parse`.
'use strict';
const { createRequire } = require('node:module');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

// Parse writes log files into the working directory unless told otherwise,
// and reads this when it is first loaded.
process.env.PARSE_SERVER_LOGS_FOLDER ??= join(
  tmpdir(),
  'quitanda-bench-parse-logs',
);

const parseRequire = createRequire(
  join(process.env.PARSE_SERVER_DIR, 'package.json'),
);
const express = parseRequire('express');
const { ParseServer } = parseRequire('parse-server');

const port = Number(process.env.PORT);

async function main() {
  const api = new ParseServer({
    databaseURI: process.env.DATABASE_URL,
    appId: process.env.PARSE_APP_ID,
    masterKey: process.env.PARSE_MASTER_KEY,
    restAPIKey: process.env.PARSE_REST_KEY,
    serverURL: `http://127.0.0.1:${port}/parse`,
    allowClientClassCreation: false,
    logLevel: 'error',
    silent: true,
  });
  await api.start();
  const app = express();
  app.get('/health/ready', (_req, res) => res.send('ok'));
  app.use('/parse', api.app);
  const server = app.listen(port, '127.0.0.1');
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
