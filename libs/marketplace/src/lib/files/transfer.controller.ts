import {
  Controller,
  Get,
  Headers,
  Param,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiErrorResponses,
  ApiPublic,
  endWithBody,
  noteBodyLimit,
} from '@quitanda/http';
import type { Request, Response } from 'express';

import { KINVEY_ENTITY, KinveyErrorDto } from '../http/kinvey-api.decorators';
import { parseContentRange, parseRange } from './content-range';
import { DOWNLOAD_CSP, showsInline } from './download-policy';
import { isMediaType } from './media-type';
import { readBytes } from './read-bytes';
import { TransferService } from './transfer.service';
import type { SignedParams, UploadState } from './transfer.service';

function sendState(res: Response, state: UploadState, status: number): void {
  if (state.complete) {
    res.status(status).json(state.file.doc);
    return;
  }
  if (state.storedBytes > 0)
    res.setHeader('Range', `bytes=0-${state.storedBytes - 1}`);
  res.status(308).setHeader('Content-Length', '0');
  res.end();
}

/**
 * The self-authorising upload and download URLs that `/blob` hands out
 * (no `Authorization`: the signature in the URL is the credential).
 */
@ApiTags('marketplace: files')
@ApiQuery({ name: 'generation', description: 'file generation (signed)' })
@ApiQuery({
  name: 'expires',
  description: 'expiry, epoch seconds, 0 = never (signed)',
})
@ApiQuery({
  name: 'signature',
  description: 'HMAC signature (redacted from logs)',
})
@ApiParam({ name: 'appKey', description: 'The app key (kid_...)' })
// The signature in the URL is the credential: no Authorization header.
@ApiPublic()
@ApiErrorResponses(KinveyErrorDto, {
  401: { description: 'InvalidCredentials: tampered with or expired.' },
  404: { description: 'AppNotFound or BlobNotFound.' },
  500: { description: 'KinveyInternalErrorRetry; retry.' },
})
@Controller('blob/:appKey')
export class TransferController {
  constructor(private readonly transfer: TransferService) {}

  @Put('_upload/:id')
  @ApiOperation({
    summary:
      'Signed upload URL (_uploadURL): `Content-Range: bytes */N` probes (308 + Range while incomplete, 200 when complete); `bytes a-b/N` stores a chunk (308 or 201); no Content-Range stores the whole body. 413 over the declared size or limit; 401 InvalidCredentials when tampered with or expired, InsufficientCredentials once the upload is complete (the URL writes the bytes once).',
  })
  @ApiHeader({ name: 'Content-Range', required: false })
  @ApiResponse({
    status: 201,
    description: 'Stored, complete: the file metadata (200 for a probe).',
    schema: KINVEY_ENTITY,
  })
  @ApiResponse({
    status: 308,
    description: 'Incomplete: `Range: bytes=0-<last stored>` when any.',
  })
  @ApiResponse({ status: 416, description: 'An unreadable Content-Range.' })
  @ApiErrorResponses(KinveyErrorDto, {
    413: { description: 'Over the declared size or the upload limit.' },
  })
  async upload(
    @Param('appKey') appKey: string,
    @Param('id') id: string,
    @Query() params: SignedParams,
    @Headers('content-range') contentRange: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    // Noted before any check, so that a refusal (a spent or forged URL, a
    // body over the file's size) is heard by a client still writing: the
    // rest is read and dropped up to the upload limit, not 1 MiB.
    noteBodyLimit(req, this.transfer.maxUploadBytes);
    const file = await this.transfer.authorise('upload', appKey, id, params);
    const range = parseContentRange(contentRange);
    if (contentRange && !range) {
      res.status(416).setHeader('Content-Range', `bytes */${file.size}`);
      res.end();
      return;
    }
    this.transfer.requireOpen(file, range);
    const body = await readBytes(req, this.transfer.limitFor(file, range));
    const state = await this.transfer.upload(appKey, file, range, body);
    sendState(res, state, range?.kind === 'probe' ? 200 : 201);
  }

  @Get('_download/:id')
  @ApiOperation({
    summary:
      'Signed download URL (_downloadURL): the bytes with Content-Type, ETag, Cache-Control, nosniff and a sandboxing CSP, as an attachment unless an image, audio, video or plain text; honours Range (206) and If-None-Match (304).',
  })
  @ApiHeader({ name: 'Range', required: false })
  @ApiHeader({ name: 'If-None-Match', required: false })
  @ApiResponse({
    status: 200,
    description: "The bytes, with the file's Content-Type and an ETag.",
    content: {
      'application/octet-stream': {
        schema: { type: 'string', format: 'binary' },
      },
    },
  })
  @ApiResponse({
    status: 206,
    description: 'The requested range (Content-Range).',
    content: {
      'application/octet-stream': {
        schema: { type: 'string', format: 'binary' },
      },
    },
  })
  @ApiResponse({ status: 304, description: 'Unchanged (If-None-Match).' })
  async download(
    @Param('appKey') appKey: string,
    @Param('id') id: string,
    @Query() params: SignedParams,
    @Headers('range') rangeHeader: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const file = await this.transfer.authorise('download', appKey, id, params);
    const size = file.storedBytes;
    const etag = `"${file.generation}-${size}-${file.updatedAt.getTime().toString(36)}"`;
    const isPublic = file.doc['_public'] === true;
    res.setHeader('ETag', etag);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader(
      'Cache-Control',
      isPublic ? 'public, max-age=3600' : 'private, max-age=300',
    );
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', DOWNLOAD_CSP);
    // One stored before media types were checked is sent as plain bytes.
    const declared = String(file.doc['mimeType']);
    const mimeType = isMediaType(declared)
      ? declared
      : 'application/octet-stream';
    // Before Content-Type: Express sets one from the name's extension.
    if (!showsInline(mimeType))
      res.attachment(String(file.doc['_filename'] ?? id));
    res.setHeader('Content-Type', mimeType);
    if (
      ifNoneMatch &&
      ifNoneMatch.split(',').some((tag) => tag.trim() === etag)
    ) {
      res.status(304).end();
      return;
    }
    const range = parseRange(rangeHeader, size);
    if (range === null) {
      res.status(416).setHeader('Content-Range', `bytes */${size}`);
      res.end();
      return;
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    const bytes =
      size === 0
        ? Buffer.alloc(0)
        : await this.transfer.read(appKey, file, start, end);
    if (range)
      res
        .status(206)
        .setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
    else res.status(200);
    endWithBody(res, bytes);
  }
}
