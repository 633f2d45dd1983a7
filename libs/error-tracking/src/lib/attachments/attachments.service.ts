import { Injectable } from '@nestjs/common';

import { ErrorTrackingError } from '../common/error-tracking.errors';
import { isEventId } from '../errors/list-cursor';
import type { ProjectAccess } from '../projects/project.types';
import type { StoredAttachment } from './attachment.types';
import { AttachmentsRepository } from './attachments.repository';

/** An event's attachments as a project member sees them. */
@Injectable()
export class AttachmentsService {
  constructor(private readonly attachments: AttachmentsRepository) {}

  /** The event's attachments (none for an id that is no event's). */
  list(access: ProjectAccess, eventId: string): Promise<StoredAttachment[]> {
    if (!isEventId(eventId)) return Promise.resolve([]);
    return this.attachments.listForEvent(access.project.id, eventId);
  }

  /** One attachment of the error's event, else 404. */
  async find(
    access: ProjectAccess,
    errorId: string,
    eventId: string,
    attachmentId: string,
  ): Promise<StoredAttachment> {
    const attachment =
      isEventId(eventId) && /^\d{1,18}$/.test(attachmentId)
        ? await this.attachments.find(
            access.project.id,
            errorId,
            eventId,
            attachmentId,
          )
        : undefined;
    if (!attachment) throw ErrorTrackingError.notFound('Attachment');
    return attachment;
  }

  /** Its bytes, a stored piece at a time. */
  async *read(attachment: StoredAttachment): AsyncGenerator<Buffer> {
    for (let seq = 0, sent = 0; sent < attachment.size; seq += 1) {
      const chunk = await this.attachments.chunk(attachment.id, seq);
      // Written whole before it was linked: a missing piece is a fault.
      if (!chunk)
        throw new Error(`attachment ${attachment.id} lacks piece ${seq}`);
      sent += chunk.length;
      yield chunk;
    }
  }
}
