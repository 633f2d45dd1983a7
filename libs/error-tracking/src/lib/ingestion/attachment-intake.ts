import { isConnectionFailure } from '@quitanda/database';

import { ATTACHMENT_CHUNK_BYTES } from '../attachments/attachment.types';
import type { AttachmentsRepository } from '../attachments/attachments.repository';
import type { EnvelopeItem } from './envelope';
import { TAG_MAX } from './limits';
import { truncate } from './normalize-event';
import type { Discard } from './release-health-items';

export interface AttachmentIntakeOptions {
  readonly projectId: number;
  readonly receivedAt: Date;
  /** Attachment bytes kept per envelope (its event's). */
  readonly maxBytes: number;
  /** Attachment bytes the project may hold. */
  readonly maxProjectBytes: number;
  /** Told the bytes held while an attachment is written (once); may throw. */
  readonly hold: (bytes: number) => void;
}

export interface LinkedAttachments {
  readonly count: number;
  readonly bytes: number;
  /** Written whole but not linked: the database went away meanwhile. */
  readonly lost: number;
}

/** Why an attachment was not kept (the discard's reason). */
type SkipReason =
  'too_large' | 'storage_full' | 'database_unavailable' | 'no_event';

interface Writing {
  /** Undefined while skipped (`skip` says why). */
  id?: string;
  skip?: SkipReason;
  size: number;
  seq: number;
  pieces: Buffer[];
  buffered: number;
}

function discardOf(reason: SkipReason): Discard {
  return { source: 'server', reason, category: 'attachment', quantity: 1 };
}

function textOf(value: unknown, fallback: string | null): string | null {
  return typeof value === 'string' && value.length > 0
    ? truncate(value, TAG_MAX)
    : fallback;
}

/**
 * One envelope's attachments, written to the database as their bytes
 * arrive (a piece of `ATTACHMENT_CHUNK_BYTES` held at a time), unlinked
 * until the request's event is stored: then `link`, else `abandon`. Those
 * past the envelope's or the project's bound, or met by a database outage,
 * are read through, dropped, and counted as discarded; the event is kept.
 */
export class AttachmentIntake {
  private reserved = 0;
  private projectRoom: number | undefined;
  private unavailable = false;
  private held = 0;
  private current: Writing | undefined;
  private readonly complete: Array<{ id: string; size: number }> = [];
  private readonly incomplete: string[] = [];
  readonly discards: Discard[] = [];

  constructor(
    private readonly repository: AttachmentsRepository,
    private readonly options: AttachmentIntakeOptions,
  ) {}

  /** Attachments written whole so far. */
  get stored(): number {
    return this.complete.length;
  }

  /** The framer's question: stream this item (within the envelope's bound)? */
  streams(type: string, length: number): boolean {
    if (type !== 'attachment') return false;
    if (this.reserved + length > this.options.maxBytes) return false;
    this.reserved += length;
    return true;
  }

  /** An attachment the framer dropped (past the bound or of no length). */
  skipped(item: EnvelopeItem): void {
    if (item.type === 'attachment') this.discard('too_large');
  }

  /** A piece of the attachment being streamed (`last` ends it). */
  async piece(item: EnvelopeItem): Promise<void> {
    const writing = (this.current ??= await this.open(item.header));
    if (!writing.skip && item.payload.length > 0) {
      writing.pieces.push(item.payload);
      writing.buffered += item.payload.length;
      while (!writing.skip && writing.buffered >= ATTACHMENT_CHUNK_BYTES)
        await this.flush(writing, ATTACHMENT_CHUNK_BYTES);
    }
    if (item.streamed !== 'last') return;
    this.current = undefined;
    if (!writing.skip && writing.buffered > 0)
      await this.flush(writing, writing.buffered);
    if (writing.skip) {
      this.discard(writing.skip);
      if (writing.id) this.incomplete.push(writing.id);
    } else if (writing.id) {
      this.complete.push({ id: writing.id, size: writing.size });
    }
  }

  /**
   * The event is stored (or spooled): its attachments become its own.
   * During an outage none is linked (`lost` says how many; their rows are
   * left to retention).
   */
  async link(eventId: string): Promise<LinkedAttachments> {
    const ids = this.complete.map((a) => a.id);
    await this.deleteQuietly(this.incomplete);
    if (ids.length === 0) return { count: 0, bytes: 0, lost: 0 };
    try {
      await this.repository.link(ids, this.options.projectId, eventId);
    } catch (error) {
      if (!isConnectionFailure(error)) throw error;
      return { count: 0, bytes: 0, lost: ids.length };
    }
    return {
      count: ids.length,
      bytes: this.complete.reduce((sum, a) => sum + a.size, 0),
      lost: 0,
    };
  }

  /** The envelope has no event: its attachments go, counted as discarded. */
  async dropWithoutEvent(): Promise<Discard[]> {
    const dropped = await this.abandon();
    return Array.from({ length: dropped }, () => discardOf('no_event'));
  }

  /**
   * The request stored nothing: its attachments go (again harmlessly).
   * Returns how many had been written whole.
   */
  async abandon(): Promise<number> {
    const whole = this.complete.length;
    const ids = [
      ...this.complete.map((a) => a.id),
      ...this.incomplete,
      ...(this.current?.id ? [this.current.id] : []),
    ];
    this.complete.length = 0;
    this.incomplete.length = 0;
    this.current = undefined;
    await this.deleteQuietly(ids);
    return whole;
  }

  private async open(header: EnvelopeItem['header']): Promise<Writing> {
    const size = header['length'] as number;
    const writing: Writing = { size, seq: 0, pieces: [], buffered: 0 };
    if (this.unavailable) return { ...writing, skip: 'database_unavailable' };
    try {
      this.projectRoom ??=
        this.options.maxProjectBytes -
        (await this.repository.projectBytes(this.options.projectId));
      if (size > this.projectRoom) return { ...writing, skip: 'storage_full' };
      this.projectRoom -= size;
      // One piece is held at a time: the largest this request needs.
      const piece = Math.min(size, ATTACHMENT_CHUNK_BYTES);
      if (piece > this.held) {
        this.options.hold(piece - this.held);
        this.held = piece;
      }
      writing.id = await this.repository.create({
        projectId: this.options.projectId,
        filename: textOf(header['filename'], 'attachment') as string,
        contentType: textOf(header['content_type'], null),
        size,
        receivedAt: this.options.receivedAt,
      });
      return writing;
    } catch (error) {
      return this.outage(error, writing);
    }
  }

  /** Writes the first `count` bytes buffered as the next stored piece. */
  private async flush(writing: Writing, count: number): Promise<void> {
    const data = Buffer.concat(writing.pieces, writing.buffered);
    const rest = data.subarray(count);
    writing.pieces = rest.length > 0 ? [rest] : [];
    writing.buffered = rest.length;
    try {
      await this.repository.writeChunk(
        writing.id as string,
        writing.seq++,
        data.subarray(0, count),
      );
    } catch (error) {
      this.outage(error, writing);
    }
  }

  /** A database outage skips the rest; any other failure fails the request. */
  private outage(error: unknown, writing: Writing): Writing {
    if (!isConnectionFailure(error)) throw error;
    this.unavailable = true;
    writing.skip = 'database_unavailable';
    writing.pieces = [];
    writing.buffered = 0;
    return writing;
  }

  private discard(reason: SkipReason): void {
    this.discards.push(discardOf(reason));
  }

  /** Rows this request will not link; an outage leaves them to retention. */
  private async deleteQuietly(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      await this.repository.delete(ids);
    } catch (error) {
      if (!isConnectionFailure(error)) throw error;
    }
  }
}
