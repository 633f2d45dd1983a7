import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { AppsService } from '../apps/apps.service';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import type { UploadRange } from './content-range';
import { FilesRepository } from './files.repository';
import type { StoredFile } from './files.repository';
import { verifySignature } from './url-signer';
import type { UrlPurpose } from './url-signer';

export interface SignedParams {
  readonly generation?: unknown;
  readonly expires?: unknown;
  readonly signature?: unknown;
}

/** Where an upload stands: done, or the bytes stored so far (308). */
export type UploadState =
  | { readonly complete: true; readonly file: StoredFile }
  | { readonly complete: false; readonly storedBytes: number };

function int(value: unknown): number {
  return typeof value === 'string' && /^\d{1,15}$/.test(value)
    ? Number(value)
    : NaN;
}

const spent = () =>
  MarketplaceError.insufficient(
    'This upload is complete; replace the file for a new upload URL.',
  );

/** The self-authorising upload and download URLs. */
@Injectable()
export class TransferService {
  constructor(
    private readonly apps: AppsService,
    private readonly files: FilesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  /** The file a signed URL grants, or 401 when it is tampered with or expired. */
  async authorise(
    purpose: UrlPurpose,
    appKey: string,
    fileId: string,
    params: SignedParams,
  ): Promise<StoredFile> {
    const app = await this.apps.get(appKey);
    const generation = int(params.generation);
    const expires = int(params.expires);
    const valid =
      typeof params.signature === 'string' &&
      Number.isFinite(generation) &&
      Number.isFinite(expires) &&
      verifySignature(
        app.signingKey,
        purpose,
        appKey,
        fileId,
        generation,
        expires,
        params.signature,
        Math.floor(this.clock.now().getTime() / 1000),
      );
    if (!valid)
      throw MarketplaceError.invalidCredentials(
        purpose,
        'This URL is not valid (tampered with or expired).',
      );
    const file = await this.files.find(appKey, fileId);
    if (!file || file.generation !== generation)
      throw MarketplaceError.blobNotFound(fileId);
    return file;
  }

  /** The most bytes any upload carries (`MARKETPLACE_MAX_UPLOAD_BYTES`). */
  get maxUploadBytes(): number {
    return this.options.maxUploadBytes;
  }

  /** The most bytes this upload may still carry. */
  limitFor(file: StoredFile, range: UploadRange | undefined): number {
    const declared = file.size >= 0 ? file.size : this.options.maxUploadBytes;
    const cap = Math.min(declared, this.options.maxUploadBytes);
    return range?.kind === 'chunk' ? Math.max(0, cap - range.start) : cap;
  }

  /**
   * An upload URL writes a file's bytes once: after the upload completed,
   * only probes are answered, so the bytes behind handed-out download URLs
   * never change (a replacement, with its new URLs, is the way to others).
   */
  requireOpen(file: StoredFile, range: UploadRange | undefined): void {
    if (range?.kind !== 'probe' && this.state(file).complete) throw spent();
  }

  state(file: StoredFile): UploadState {
    return file.size >= 0 && file.storedBytes >= file.size
      ? { complete: true, file }
      : { complete: false, storedBytes: file.storedBytes };
  }

  /** Stores a chunk (or the whole body, without a range). */
  async upload(
    appKey: string,
    file: StoredFile,
    range: UploadRange | undefined,
    body: Buffer,
  ): Promise<UploadState> {
    if (range?.kind === 'probe') {
      if (file.size >= 0 && range.total !== file.size)
        throw MarketplaceError.badUpload(`declared size is ${file.size}`);
      return this.state(file);
    }
    const total = range ? range.total : body.length;
    if (total > this.options.maxUploadBytes)
      throw MarketplaceError.tooLarge(
        `limit ${this.options.maxUploadBytes} bytes`,
      );
    if (file.size >= 0 && total > file.size)
      throw MarketplaceError.tooLarge(`declared size is ${file.size}`);
    if (range && body.length !== range.end - range.start + 1)
      throw MarketplaceError.badUpload(
        'the body length differs from Content-Range',
      );
    if (
      file.size >= 0 &&
      total >= 0 &&
      total < file.size &&
      (!range || range.end + 1 >= total)
    )
      throw MarketplaceError.badUpload(`declared size is ${file.size}`);
    const result = await this.files.append(appKey, file.id, file.generation, {
      offset: range ? range.start : 0,
      data: body,
      restart: !range,
      size:
        file.size < 0 && total >= 0 && (!range || range.end + 1 === total)
          ? total
          : -1,
    });
    if (result.kind === 'gone') throw MarketplaceError.blobNotFound(file.id);
    // Completed by a concurrent request since this one was authorised.
    if (result.kind === 'complete') throw spent();
    // A chunk that does not continue where the stored bytes end is not
    // applied; the 308 tells the client where to resume.
    return this.state(result.file);
  }

  read(
    appKey: string,
    file: StoredFile,
    start: number,
    end: number,
  ): Promise<Buffer> {
    return this.files.read(appKey, file.id, start, end);
  }
}
