import type { JsonObject } from '../sentry-event/event-json';

/**
 * Native frames as Sentry groups them: which are the application's
 * (`is_known_third_party` in `sentry/utils/in_app.py`), and a function
 * name without what varies between builds and call sites
 * (`trim_function_name` in `sentry/stacktraces/functions.py`).
 */

const IOS_APP_PATHS = [
  '/var/containers/Bundle/Application/',
  '/private/var/containers/Bundle/Application/',
];
const MACOS_APP_PATHS = ['.app/Contents/', '/Users/', '/usr/local/'];
const LINUX_SYSTEM_PATHS = ['/lib/', '/usr/lib/', 'linux-gate.so'];
const WINDOWS_SYSTEM_PATH = /^[a-z]:\\windows/i;
/** Swift's runtime and the crash reporters' own frameworks, bundled in apps. */
const SUPPORT_FRAMEWORK =
  /\/Frameworks\/(?:libswift[a-zA-Z0-9]+\.dylib$|(?:KSCrash|SentrySwift|Sentry)\.framework\/)/;

/** The operating system an event names (`contexts.os.name`), lower case. */
function eventOs(payload: JsonObject): string {
  const contexts = payload['contexts'];
  const os =
    typeof contexts === 'object' && contexts !== null
      ? (contexts as { os?: { name?: unknown } }).os?.name
      : undefined;
  return typeof os === 'string' ? os.toLowerCase() : '';
}

/**
 * Sentry's `is_known_third_party`: whether a native image is a system or
 * third-party library. On an operating system the event does not name,
 * every image counts as one.
 */
function isThirdPartyImage(image: string, os: string): boolean {
  if (SUPPORT_FRAMEWORK.test(image)) return true;
  if (IOS_APP_PATHS.some((path) => image.startsWith(path))) return false;
  if (
    image.includes('/Developer/CoreSimulator/Devices/') &&
    image.includes('/Containers/Bundle/Application/')
  )
    return false;
  if (os === 'macos') return !MACOS_APP_PATHS.some((p) => image.includes(p));
  if (os === 'linux') return isSystemImage(image);
  if (os === 'windows') return WINDOWS_SYSTEM_PATH.test(image);
  return true;
}

/** An image in a system library location, whatever the event's OS. */
function isSystemImage(image: string): boolean {
  return (
    SUPPORT_FRAMEWORK.test(image) ||
    LINUX_SYSTEM_PATHS.some((p) => image.startsWith(p)) ||
    WINDOWS_SYSTEM_PATH.test(image)
  );
}

interface Image {
  readonly start: bigint;
  readonly end: bigint;
  readonly name: string;
}

function address(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || !/^0x[0-9a-f]{1,16}$/i.test(value))
    return undefined;
  return BigInt(value);
}

/** The event's loaded images (`debug_meta.images`), by start address. */
function imagesOf(payload: JsonObject): Image[] {
  const meta = payload['debug_meta'];
  const list =
    typeof meta === 'object' && meta !== null
      ? (meta as { images?: unknown }).images
      : undefined;
  if (!Array.isArray(list)) return [];
  const images: Image[] = [];
  for (const image of list) {
    if (typeof image !== 'object' || image === null) continue;
    const { image_addr, image_size, name, code_file } = image as JsonObject;
    const start = address(image_addr);
    const file = typeof code_file === 'string' ? code_file : name;
    if (start === undefined || typeof file !== 'string') continue;
    const size =
      typeof image_size === 'number' ? BigInt(Math.trunc(image_size)) : 0n;
    images.push({ start, end: start + size, name: file });
  }
  return images.sort((a, b) =>
    a.start < b.start ? -1 : a.start > b.start ? 1 : 0,
  );
}

/** The image holding an address (binary search over sorted images). */
function imageAt(images: readonly Image[], at: bigint): string | undefined {
  let low = 0;
  let high = images.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const image = images[mid] as Image;
    if (at < image.start) high = mid - 1;
    else if (at >= image.end) low = mid + 1;
    else return image.name;
  }
  return undefined;
}

/**
 * Which of a native stack trace's frames are the application's, as Sentry
 * decides once it knows each frame's image (its `package` path, else the
 * image its `instruction_addr` falls in): a frame in a system library is
 * not, whatever the SDK said (Sentry's default stack-trace rules); else
 * the SDK's `in_app`; else whether its image is not a third-party one.
 */
export function nativeInApp(
  frames: readonly JsonObject[],
  payload: JsonObject,
): boolean[] {
  const os = eventOs(payload);
  let images: Image[] | undefined;
  return frames.map((frame) => {
    const pkg = frame['package'];
    let image = typeof pkg === 'string' && /[/\\]/.test(pkg) ? pkg : undefined;
    if (image === undefined) {
      const at = address(frame['instruction_addr']);
      if (at !== undefined) image = imageAt((images ??= imagesOf(payload)), at);
    }
    if (image !== undefined && isSystemImage(image)) return false;
    if (typeof frame['in_app'] === 'boolean') return frame['in_app'];
    return image !== undefined && !isThirdPartyImage(image, os);
  });
}

/** Qualifiers after a C++ parameter list (`const`, `&&`, `noexcept`, ...). */
const TRAILING_QUALIFIERS = /^(?:\s*(?:const|volatile|noexcept|&&|&))*\s*$/;
const OFFSET = /\s+\+\s*(?:0x[0-9a-fA-F]+|\d+)$/;
const CLONE_SUFFIX = /\s*\[clone [^\]]*\]$/;
const LAMBDA = /\{lambda\([^{}]*\)#\d+\}/g;
const OPERATOR =
  /^operator\s*(?:\(\)|\[\]|<=>|<<=?|>>=?|[<>]=?|->\*?|[^\s\w(]{1,3})?/;

/**
 * A native function name as Sentry groups it: no offset (` + 0x1f`), no
 * parameter list, template arguments as `<T>`, no return type, lambdas as
 * `lambda`, so `std::vector<int>::push_back(int const&) + 12` is
 * `std::vector<T>::push_back`. Objective-C selectors stay whole. One pass
 * over the name.
 */
export function nativeFunctionName(name: string): string {
  const fn = name.replace(OFFSET, '').replace(CLONE_SUFFIX, '').trim();
  if (fn.startsWith('-[') || fn.startsWith('+[')) return fn;
  const src = fn
    .replaceAll('(anonymous namespace)', 'anonymous_namespace')
    .replace(LAMBDA, 'lambda');
  let out = '';
  let angle = 0;
  let paren = 0;
  let paramsStart = -1;
  let paramsEnd = -1;
  for (let i = 0; i < src.length; i++) {
    const c = src[i] as string;
    // `operator<`, `operator()` and the like are names, not brackets.
    if (angle === 0 && paren === 0 && src.startsWith('operator', i)) {
      const op = OPERATOR.exec(src.slice(i, i + 12));
      if (op) {
        out += op[0];
        i += op[0].length - 1;
        continue;
      }
    }
    if (c === '<') {
      if (angle === 0 && paren === 0) out += '<T>';
      angle++;
    } else if (c === '>' && angle > 0) angle--;
    else if (angle > 0) continue;
    else if (c === '(') {
      if (paren === 0) paramsStart = out.length;
      paren++;
      out += c;
    } else if (c === ')' && paren > 0) {
      paren--;
      out += c;
      if (paren === 0) paramsEnd = out.length;
    } else out += c;
  }
  // The last top-level parentheses are the parameter list when only
  // qualifiers follow them (or they never close: a cut name).
  if (
    paramsStart > 0 &&
    (paren > 0 || TRAILING_QUALIFIERS.test(out.slice(paramsEnd)))
  )
    out = out.slice(0, paramsStart);
  // A return type precedes the name: `void ns::f` is `ns::f`.
  const space = out.trimEnd().lastIndexOf(' ');
  if (space > 0 && !out.slice(0, space).endsWith('operator'))
    out = out.slice(space + 1);
  return out.trim();
}
