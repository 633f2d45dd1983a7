import { ATTACHMENT_CHUNK_BYTES as PIECE } from '../attachments/attachment.types';
import type { AttachmentsRepository } from '../attachments/attachments.repository';
import { AttachmentIntake } from './attachment-intake';
import type { EnvelopeItem } from './envelope';

const MIB = 1024 * 1024;

function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
    code: 'ECONNREFUSED',
  });
}

/** A hand-written repository: rows and pieces in memory, failures on demand. */
class FakeAttachments {
  projectUsed = 0;
  next = 1;
  readonly rows = new Map<string, { filename: string; eventId?: string }>();
  readonly pieces: Array<[string, number, number]> = [];
  failWrites: Error | undefined;

  projectBytes = jest.fn(async () => this.projectUsed);
  create = jest.fn(async (a: { filename: string }) => {
    const id = String(this.next++);
    this.rows.set(id, { filename: a.filename });
    return id;
  });
  writeChunk = jest.fn(async (id: string, seq: number, data: Buffer) => {
    if (this.failWrites) throw this.failWrites;
    this.pieces.push([id, seq, data.length]);
  });
  link = jest.fn(
    async (ids: readonly string[], _p: number, eventId: string) => {
      for (const id of ids)
        (this.rows.get(id) ?? { filename: '' }).eventId = eventId;
    },
  );
  delete = jest.fn(async (ids: readonly string[]) => {
    for (const id of ids) this.rows.delete(id);
  });
}

function intakeOver(
  fake: FakeAttachments,
  options: { maxBytes?: number; maxProjectBytes?: number } = {},
) {
  const held: number[] = [];
  const intake = new AttachmentIntake(
    fake as unknown as AttachmentsRepository,
    {
      projectId: 7,
      receivedAt: new Date('2026-11-29T09:00:00Z'),
      maxBytes: options.maxBytes ?? 20 * MIB,
      maxProjectBytes: options.maxProjectBytes ?? 1024 * MIB,
      hold: (bytes) => held.push(bytes),
    },
  );
  return { intake, held };
}

/** Streams an attachment of `size` bytes in pieces of `piece` bytes. */
async function send(
  intake: AttachmentIntake,
  filename: string,
  size: number,
  piece = 300 * 1024,
): Promise<void> {
  const header = { type: 'attachment', filename, length: size };
  expect(intake.streams('attachment', size)).toBe(true);
  const items: EnvelopeItem[] = [];
  for (let at = 0; at < size; at += piece)
    items.push({
      header,
      type: 'attachment',
      payload: Buffer.alloc(Math.min(piece, size - at)),
      streamed: 'more',
    });
  items.push({
    header,
    type: 'attachment',
    payload: Buffer.alloc(0),
    streamed: 'last',
  });
  for (const item of items) await intake.piece(item);
}

describe('AttachmentIntake', () => {
  it('writes an attachment in pieces of ATTACHMENT_CHUNK_BYTES, in order, holding one piece, and links it to the event', async () => {
    const fake = new FakeAttachments();
    const { intake, held } = intakeOver(fake);
    const size = 2.5 * PIECE;
    await send(intake, 'heap.bin', size, 77_000);
    await send(intake, 'small.txt', 10);
    expect(fake.pieces).toEqual([
      ['1', 0, PIECE],
      ['1', 1, PIECE],
      ['1', 2, 0.5 * PIECE],
      ['2', 0, 10],
    ]);
    expect(held).toEqual([PIECE]);
    await expect(intake.link('e'.repeat(32))).resolves.toEqual({
      count: 2,
      bytes: size + 10,
      lost: 0,
    });
    expect([...fake.rows.values()].map((r) => r.eventId)).toEqual([
      'e'.repeat(32),
      'e'.repeat(32),
    ]);
    expect(intake.discards).toEqual([]);
  });

  it('streams attachments only within the envelope bound, counting those dropped as too large', () => {
    const { intake } = intakeOver(new FakeAttachments(), { maxBytes: 10 });
    expect(intake.streams('event', 1)).toBe(false);
    expect(intake.streams('attachment', 6)).toBe(true);
    expect(intake.streams('attachment', 5)).toBe(false);
    expect(intake.streams('attachment', 4)).toBe(true);
    intake.skipped({
      header: {},
      type: 'attachment',
      payload: Buffer.alloc(0),
    });
    intake.skipped({
      header: {},
      type: 'transaction',
      payload: Buffer.alloc(0),
    });
    expect(intake.discards).toEqual([
      {
        source: 'server',
        reason: 'too_large',
        category: 'attachment',
        quantity: 1,
      },
    ]);
  });

  it("skips what would pass the project's bound, writing nothing of it", async () => {
    const fake = new FakeAttachments();
    fake.projectUsed = 90;
    const { intake } = intakeOver(fake, { maxProjectBytes: 100 });
    await send(intake, 'fits.txt', 6, 4);
    await send(intake, 'past.txt', 6, 4);
    expect([...fake.rows.values()].map((r) => r.filename)).toEqual([
      'fits.txt',
    ]);
    expect(fake.projectBytes).toHaveBeenCalledTimes(1);
    expect(intake.discards.map((d) => d.reason)).toEqual(['storage_full']);
    await expect(intake.link('e'.repeat(32))).resolves.toMatchObject({
      count: 1,
    });
  });

  it('meets a database outage by skipping the rest (counted), never failing the request, and leaves nothing linked of it', async () => {
    const fake = new FakeAttachments();
    const { intake } = intakeOver(fake);
    fake.failWrites = refused();
    await send(intake, 'cut.bin', 2 * MIB);
    await send(intake, 'after.bin', 10);
    // After the outage is met, no further attachment is tried.
    expect(fake.create).toHaveBeenCalledTimes(1);
    expect(intake.discards.map((d) => d.reason)).toEqual([
      'database_unavailable',
      'database_unavailable',
    ]);
    await expect(intake.link('e'.repeat(32))).resolves.toEqual({
      count: 0,
      bytes: 0,
      lost: 0,
    });
    // The half-written one is deleted, not linked.
    expect(fake.delete).toHaveBeenCalledWith(['1']);
    expect(fake.link).not.toHaveBeenCalled();
  });

  it('fails the request on any other database error', async () => {
    const fake = new FakeAttachments();
    const { intake } = intakeOver(fake);
    fake.failWrites = new Error('value too long');
    await expect(send(intake, 'x.bin', 2 * MIB)).rejects.toThrow(
      'value too long',
    );
  });

  it('deletes what it wrote when the request stores nothing, once', async () => {
    const fake = new FakeAttachments();
    const { intake } = intakeOver(fake);
    await send(intake, 'a.txt', 3);
    await send(intake, 'b.txt', 3);
    await expect(intake.abandon()).resolves.toBe(2);
    await expect(intake.abandon()).resolves.toBe(0);
    expect(fake.rows.size).toBe(0);
    expect(fake.delete).toHaveBeenCalledTimes(1);
  });

  it('reports attachments written but not linked when the database goes away at the end', async () => {
    const fake = new FakeAttachments();
    const { intake } = intakeOver(fake);
    await send(intake, 'a.txt', 3);
    fake.link.mockRejectedValueOnce(refused());
    await expect(intake.link('e'.repeat(32))).resolves.toEqual({
      count: 0,
      bytes: 0,
      lost: 1,
    });
  });
});
