import { readFileSync } from 'node:fs';

/**
 * The reference zstd decoder (libzstd 1.5.7's single-file decoder) as the
 * WebAssembly `zstddec` ships, driven through its own exports: zstddec's
 * JavaScript wrapper ignores the decoder's error codes (a corrupt frame
 * loops for ever) and keeps its context when a reader stops early, so only
 * its WASM is used. libzstd decodes in a circular window: its cost follows
 * the bytes it produces, where fzstd copied its whole window once per block.
 */
interface ZstdExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  ZSTD_createDCtx(): number;
  ZSTD_freeDCtx(dctx: number): number;
  ZSTD_decompressStream(dctx: number, output: number, input: number): number;
  ZSTD_DStreamInSize(): number;
  ZSTD_DStreamOutSize(): number;
  malloc(bytes: number): number;
  free(pointer: number): void;
}

/** libzstd's error codes come back as small negative numbers (-size_t). */
const MOST_ERROR_CODE = 200;
const MEMORY_ALLOCATION_ERROR = -64;

/** `ZSTD_inBuffer` and `ZSTD_outBuffer`: a pointer and two size_t (wasm32). */
const BUFFER_STRUCT_BYTES = 12;

/**
 * The decoder's memory (2 GiB of WASM address space, shared by every
 * stream) is spent: windows of other streams hold it, for a while.
 */
export class ZstdWasmMemoryError extends Error {}
/** libzstd refused the data (corrupt, wrong checksum, wrong size). */
export class ZstdWasmDataError extends Error {}

/** Node's global WebAssembly, which the project's `lib` (no DOM) leaves out. */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const { WebAssembly } = globalThis as unknown as {
  WebAssembly: WebAssemblyApi;
};

let exported: ZstdExports | undefined;

function wasmBytes(): Buffer {
  // zstddec embeds its WASM as base64 in its ES module.
  const source = readFileSync(require.resolve('zstddec/stream'), 'utf8');
  const match = /const wasm = "([A-Za-z0-9+/=]+)"/.exec(source);
  if (!match) throw new Error('zstddec no longer embeds its WASM as expected');
  return Buffer.from(match[1] as string, 'base64');
}

function zstd(): ZstdExports {
  if (exported) return exported;
  const module = new WebAssembly.Module(wasmBytes());
  // Told of memory growth; views are made afresh from `memory.buffer`.
  const imports = { env: { emscripten_notify_memory_growth: () => undefined } };
  const instance = new WebAssembly.Instance(module, imports);
  exported = instance.exports as unknown as ZstdExports;
  return exported;
}

interface Handles {
  dctx: number;
  input: number;
  output: number;
  inStruct: number;
  outStruct: number;
}

function freeHandles(handles: Handles): void {
  const z = zstd();
  z.ZSTD_freeDCtx(handles.dctx);
  for (const pointer of [
    handles.input,
    handles.output,
    handles.inStruct,
    handles.outStruct,
  ])
    z.free(pointer);
}

/** A decoder dropped without `close()` (never by this code) still frees. */
const unfreed = new FinalizationRegistry<Handles>(freeHandles);

/**
 * One libzstd streaming context: input goes in a piece at a time
 * (`feedInput`, at most `inputCapacity` bytes, once the previous piece is
 * consumed), each `step()` is one `ZSTD_decompressStream` call that
 * produces at most `ZSTD_DStreamOutSize()` (128 KiB). `close()` frees it.
 */
export class ZstdWasmDecoder {
  readonly inputCapacity: number;
  private readonly outputCapacity: number;
  private handles: Handles | undefined;
  private inputBytes = 0;
  private inputAt = 0;
  private outputFull = false;
  /** libzstd's hint: 0 once a frame is complete. */
  private hint = 0;

  constructor() {
    const z = zstd();
    this.inputCapacity = z.ZSTD_DStreamInSize();
    this.outputCapacity = z.ZSTD_DStreamOutSize();
    const handles: Handles = {
      dctx: z.ZSTD_createDCtx(),
      input: z.malloc(this.inputCapacity),
      output: z.malloc(this.outputCapacity),
      inStruct: z.malloc(BUFFER_STRUCT_BYTES),
      outStruct: z.malloc(BUFFER_STRUCT_BYTES),
    };
    if (Object.values(handles).some((pointer) => pointer === 0)) {
      freeHandles(handles);
      throw new ZstdWasmMemoryError('zstd decoder out of memory');
    }
    this.handles = handles;
    unfreed.register(this, handles, this);
  }

  /** Whether a `step()` has work: input left, or output that did not fit. */
  get busy(): boolean {
    return this.inputAt < this.inputBytes || this.outputFull;
  }

  /** Whether the last frame begun was decoded to its end. */
  get frameComplete(): boolean {
    return this.hint === 0 && !this.busy;
  }

  feedInput(bytes: Uint8Array): void {
    const handles = this.live();
    if (this.inputAt < this.inputBytes || bytes.length > this.inputCapacity)
      throw new RangeError('zstd input fed before the last was consumed');
    new Uint8Array(zstd().memory.buffer).set(bytes, handles.input);
    this.inputBytes = bytes.length;
    this.inputAt = 0;
  }

  /** One call of the decoder: the bytes it produced (a copy). */
  step(): Uint8Array {
    const handles = this.live();
    const z = zstd();
    let view = new DataView(z.memory.buffer);
    view.setUint32(handles.inStruct, handles.input, true);
    view.setUint32(handles.inStruct + 4, this.inputBytes, true);
    view.setUint32(handles.inStruct + 8, this.inputAt, true);
    view.setUint32(handles.outStruct, handles.output, true);
    view.setUint32(handles.outStruct + 4, this.outputCapacity, true);
    view.setUint32(handles.outStruct + 8, 0, true);
    const result = z.ZSTD_decompressStream(
      handles.dctx,
      handles.outStruct,
      handles.inStruct,
    );
    if (result < 0 && result >= -MOST_ERROR_CODE) {
      this.close();
      if (result === MEMORY_ALLOCATION_ERROR)
        throw new ZstdWasmMemoryError('zstd decoder out of memory');
      throw new ZstdWasmDataError(
        `invalid zstd data (libzstd error ${-result})`,
      );
    }
    // The call may have grown the memory: a fresh view.
    view = new DataView(z.memory.buffer);
    this.inputAt = view.getUint32(handles.inStruct + 8, true);
    const produced = view.getUint32(handles.outStruct + 8, true);
    // A full output buffer may have left output inside, unless the frame
    // ended (a call past its end would read as a new frame's start).
    this.outputFull = produced === this.outputCapacity && result !== 0;
    this.hint = result;
    return new Uint8Array(z.memory.buffer).slice(
      handles.output,
      handles.output + produced,
    );
  }

  close(): void {
    const handles = this.handles;
    if (!handles) return;
    this.handles = undefined;
    unfreed.unregister(this);
    freeHandles(handles);
  }

  private live(): Handles {
    if (!this.handles) throw new Error('zstd decoder used after close');
    return this.handles;
  }
}

/** The WASM memory's size: it grows to the most decoders ever held at once. */
export function zstdWasmMemoryBytes(): number {
  return zstd().memory.buffer.byteLength;
}
