import { Injectable } from '@nestjs/common';

import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import { toUuid } from '../errors/errors.repository';
import type { StoredAttachment } from './attachment.types';

interface AttachmentRow {
  id: string;
  filename: string;
  content_type: string | null;
  size: number;
  received_at: Date;
}

const COLUMNS = 'id::text, filename, content_type, size, received_at';

function toAttachment(row: AttachmentRow): StoredAttachment {
  return {
    id: row.id,
    filename: row.filename,
    contentType: row.content_type,
    size: row.size,
    receivedAt: row.received_at,
  };
}

/**
 * Event attachments: written piece by piece while the collector reads a
 * request (unlinked until its event is accepted), then listed and read
 * piece by piece for downloads.
 */
@Injectable()
export class AttachmentsRepository extends ErrorTrackingRepository {
  /** Attachment bytes the project holds, linked or still being written. */
  async projectBytes(projectId: number): Promise<number> {
    const [row] = await this.sql.rows<{ bytes: string }>(
      `SELECT coalesce(sum(size), 0)::text AS bytes
         FROM error_tracking.event_attachments WHERE project_id = $1`,
      [projectId],
    );
    return Number(row?.bytes ?? 0);
  }

  /** A new attachment, not yet linked to its event; returns its id. */
  async create(attachment: {
    projectId: number;
    filename: string;
    contentType: string | null;
    size: number;
    receivedAt: Date;
  }): Promise<string> {
    const [row] = await this.sql.rows<{ id: string }>(
      `INSERT INTO error_tracking.event_attachments
              (project_id, event_id, filename, content_type, size, received_at)
       VALUES ($1, NULL, $2, $3, $4, $5) RETURNING id::text`,
      [
        attachment.projectId,
        attachment.filename,
        attachment.contentType,
        attachment.size,
        attachment.receivedAt,
      ],
    );
    return (row as { id: string }).id;
  }

  async writeChunk(id: string, seq: number, data: Buffer): Promise<void> {
    await this.sql.rows(
      `INSERT INTO error_tracking.event_attachment_chunks (attachment_id, seq, data)
       VALUES ($1, $2, $3)`,
      [id, seq, data],
    );
  }

  /** Attachments written whole, now the event's (its project's only). */
  async link(
    ids: readonly string[],
    projectId: number,
    eventId: string,
  ): Promise<void> {
    await this.sql.rows(
      `UPDATE error_tracking.event_attachments SET event_id = $3
        WHERE id = ANY($1::bigint[]) AND project_id = $2 AND event_id IS NULL`,
      [ids, projectId, toUuid(eventId)],
    );
  }

  /** Attachments of a request that stored nothing, with their bytes. */
  async delete(ids: readonly string[]): Promise<void> {
    await this.sql.rows(
      `WITH gone AS (
         DELETE FROM error_tracking.event_attachments
          WHERE id = ANY($1::bigint[]) AND event_id IS NULL RETURNING id
       )
       DELETE FROM error_tracking.event_attachment_chunks c
        USING gone WHERE c.attachment_id = gone.id`,
      [ids],
    );
  }

  /** An event's attachments, oldest first. */
  async listForEvent(
    projectId: number,
    eventId: string,
  ): Promise<StoredAttachment[]> {
    const rows = await this.replica.rows<AttachmentRow>(
      `SELECT ${COLUMNS} FROM error_tracking.event_attachments
        WHERE project_id = $1 AND event_id = $2 ORDER BY id`,
      [projectId, toUuid(eventId)],
    );
    return rows.map(toAttachment);
  }

  /** One of an event's attachments (of that error's event only). */
  async find(
    projectId: number,
    errorId: string,
    eventId: string,
    id: string,
  ): Promise<StoredAttachment | undefined> {
    const rows = await this.replica.rows<AttachmentRow>(
      `SELECT a.id::text, a.filename, a.content_type, a.size, a.received_at
         FROM error_tracking.event_attachments a
         JOIN error_tracking.event_ids i
           ON i.project_id = a.project_id AND i.event_id = a.event_id
         JOIN error_tracking.events ev
           ON ev.received_at = i.received_at AND ev.timestamp = i.timestamp
          AND ev.event_id = i.event_id AND ev.error_id = $2
        WHERE a.id = $4 AND a.project_id = $1 AND a.event_id = $3`,
      [projectId, errorId, toUuid(eventId), id],
    );
    return rows[0] ? toAttachment(rows[0]) : undefined;
  }

  /** The attachment's piece `seq` (from 0), if there is one. */
  async chunk(id: string, seq: number): Promise<Buffer | undefined> {
    const rows = await this.replica.rows<{ data: Buffer }>(
      `SELECT data FROM error_tracking.event_attachment_chunks
        WHERE attachment_id = $1 AND seq = $2`,
      [id, seq],
    );
    return rows[0]?.data;
  }
}
