import { createHash, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';

import {
  createTrackedProject,
  createUser,
  startErrorTrackingGateway,
} from './error-tracking-support';
import type { ErrorTrackingGateway, TestUser } from './error-tracking-support';

const LIMIT = 4_096;
const ORG = '/api/0/organizations/any-org';

const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');

/** sentry-cli's chunk upload body: one part per chunk, named by its SHA-1. */
function multipart(
  parts: Array<{ name: string; filename: string; data: Buffer }>,
): { body: Buffer; type: string } {
  const boundary = `----quitanda${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts)
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      part.data,
      Buffer.from('\r\n'),
    );
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(chunks),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('the /api/0 source map endpoints refuse what they cannot store (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let user: TestUser;
  let project: { id: number };

  beforeAll(async () => {
    gw = await startErrorTrackingGateway({
      ERROR_TRACKING_MAX_ARTIFACT_BYTES: String(LIMIT),
    });
    user = await createUser(gw);
    project = await createTrackedProject(gw, user.token);
  });

  afterAll(() => gw?.close());

  function uploadChunks(chunks: Buffer[], gzip = false, token = user.token) {
    const { body, type } = multipart(
      chunks.map((data) => ({
        name: gzip ? 'file_gzip' : 'file',
        filename: sha1(data),
        data: gzip ? gzipSync(data) : data,
      })),
    );
    return gw.http
      .post(`${ORG}/chunk-upload/`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', type)
      .send(body);
  }

  function assemble(chunks: Buffer[], checksum?: string, token = user.token) {
    return gw.http
      .post(`${ORG}/artifactbundle/assemble/`)
      .set('Authorization', `Bearer ${token}`)
      .send({
        checksum: checksum ?? sha1(Buffer.concat(chunks)),
        chunks: chunks.map(sha1),
        projects: [String(project.id)],
      });
  }

  it('advertises the configured limit as the largest file', async () => {
    const options = await gw.http
      .get(`${ORG}/chunk-upload/`)
      .set('Authorization', `Bearer ${user.token}`)
      .expect(200);
    expect(options.body.maxFileSize).toBe(LIMIT);
  });

  it('refuses a chunk that does not match its SHA-1, storing nothing', async () => {
    const { body, type } = multipart([
      { name: 'file', filename: 'f'.repeat(40), data: Buffer.from('abc') },
    ]);
    const response = await gw.http
      .post(`${ORG}/chunk-upload/`)
      .set('Authorization', `Bearer ${user.token}`)
      .set('Content-Type', type)
      .send(body)
      .expect(400);
    expect(response.body).toEqual({
      detail: `Chunk ${'f'.repeat(40)} does not match its SHA-1 checksum.`,
    });
    const rows = await gw.query('SELECT 1 FROM error_tracking.artifact_chunks');
    expect(rows).toEqual([]);
  });

  it('refuses a gzip chunk that inflates past the chunk size (413)', async () => {
    const bomb = Buffer.alloc(9 * 1024 * 1024);
    const response = await uploadChunks([bomb], true).expect(413);
    expect(response.body.detail).toMatch(/A chunk is larger than/);
  });

  it('answers `error` with the reason for a bundle that is not a zip, over the limit, or not its checksum', async () => {
    const notZip = randomBytes(100);
    await uploadChunks([notZip], true).expect(200);
    const a = await assemble([notZip]).expect(200);
    expect(a.body).toEqual({
      state: 'error',
      detail: 'Invalid artifact bundle: not a zip archive',
      missingChunks: [],
    });

    const big = [randomBytes(2_000), randomBytes(2_000), randomBytes(2_000)];
    await uploadChunks(big).expect(200);
    const b = await assemble(big).expect(200);
    expect(b.body).toMatchObject({
      state: 'error',
      detail: `The bundle is larger than the limit of ${LIMIT} bytes.`,
    });

    const c = await assemble([notZip], 'e'.repeat(40)).expect(200);
    expect(c.body.detail).toBe(
      'The chunks do not add up to the bundle checksum.',
    );
    const rows = await gw.query(
      'SELECT 1 FROM error_tracking.artifact_bundles',
    );
    expect(rows).toEqual([]);
  });

  it('refuses bad assemble requests with Sentry 400s and read-only tokens with 403', async () => {
    const bad = await gw.http
      .post(`${ORG}/artifactbundle/assemble/`)
      .set('Authorization', `Bearer ${user.token}`)
      .send({ checksum: 'nope', chunks: [], projects: [] })
      .expect(400);
    expect(bad.body).toEqual({ detail: 'checksum: a SHA-1 in hex' });
    const reader = await createUser(gw, { scopes: ['read_api'] });
    const refused = await assemble(
      [Buffer.from('x')],
      undefined,
      reader.token,
    ).expect(403);
    expect(refused.body).toEqual({
      detail: 'You do not have permission to perform this action.',
    });
    // A user who maintains no project sees no organisation (sentry-cli: "organization not found").
    await gw.http
      .get(`${ORG}/chunk-upload/`)
      .set('Authorization', `Bearer ${reader.token}`)
      .expect(404);
  });

  it('validates release versions and answers 404 for an unknown release', async () => {
    const auth = { Authorization: `Bearer ${user.token}` };
    const bad = await gw.http
      .post(`${ORG}/releases/`)
      .set(auth)
      .send({ version: 'a/b', projects: [project.id] })
      .expect(400);
    expect(bad.body).toEqual({
      detail: 'version: not a valid release version',
    });
    await gw.http
      .put(`${ORG}/releases/9.9.9/`)
      .set(auth)
      .send({
        projects: [String(project.id)],
        dateReleased: new Date().toISOString(),
      })
      .expect(404);
    const created = await gw.http
      .post(`/api/0/projects/any-org/${project.id}/releases/`)
      .set(auth)
      .send({ version: 'web@2.0.0', ref: 'abc' })
      .expect(201);
    expect(created.body).toMatchObject({
      version: 'web@2.0.0',
      ref: 'abc',
      dateReleased: null,
      projects: [expect.objectContaining({ id: project.id })],
    });
  });
});
