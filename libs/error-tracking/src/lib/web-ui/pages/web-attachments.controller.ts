import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';

import { Get, Logger, Param, Res } from '@nestjs/common';
import type { Response } from 'express';

import { AttachmentsService } from '../../attachments/attachments.service';
import { AccessLevel } from '../../common/error-tracking.constants';
import { parseBigId } from '../../http/path-params';
import type { ProjectAccess } from '../../projects/project.types';
import { WebProjectAt } from '../toolkit/project-access.pipe';
import { WebController } from '../toolkit/web-controller.decorator';

/**
 * Nothing an SDK sent runs or renders on this origin: no script, no
 * style, no plugin, and a sandbox should a browser display it anyway.
 */
export const ATTACHMENT_CSP = "default-src 'none'; sandbox";

/**
 * An event's attachment, to project members only (others get 404), always
 * as a download of plain bytes: whatever type the SDK declared, a browser
 * neither sniffs nor renders it.
 */
@WebController('projects/:id/error_tracking')
export class WebAttachmentsController {
  private readonly logger = new Logger('WebAttachments');

  constructor(private readonly attachments: AttachmentsService) {}

  @Get(':error_id/events/:event_id/attachments/:attachment_id')
  async download(
    @WebProjectAt(AccessLevel.Reporter) access: ProjectAccess,
    @Param('error_id') errorId: string,
    @Param('event_id') eventId: string,
    @Param('attachment_id') attachmentId: string,
    @Res() res: Response,
  ): Promise<void> {
    const attachment = await this.attachments.find(
      access,
      parseBigId(errorId, 'Error'),
      eventId,
      attachmentId,
    );
    // Before Content-Type: Express sets one from the name's extension.
    res.attachment(attachment.filename);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Length', String(attachment.size));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', ATTACHMENT_CSP);
    res.setHeader('Cache-Control', 'private, no-store');
    // Read a stored piece at a time, as the client takes them.
    try {
      await pipeline(Readable.from(this.attachments.read(attachment)), res);
    } catch (error) {
      // The pipeline has ended the response: a connection cut short of its
      // Content-Length tells the client the download failed.
      if ((error as { code?: unknown }).code !== 'ERR_STREAM_PREMATURE_CLOSE')
        this.logger.warn(
          `attachment ${attachment.id}: ${(error as Error).message}`,
        );
    }
  }
}
