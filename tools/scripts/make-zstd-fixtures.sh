#!/usr/bin/env bash
# Makes the zstd request-body fixtures (libs/shared/testing/fixtures/zstd)
# with the zstd CLI, so the decoder is tested on what the reference encoder
# writes: single-segment frames with content sizes and checksums, streamed
# frames with window descriptors, RLE and compressed blocks. index.json
# records each plaintext's size and sha256, which is all the specs compare.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="$root/libs/shared/testing/fixtures/zstd"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
command -v zstd >/dev/null || { echo "needs the zstd CLI (apt-get install zstd)" >&2; exit 1; }

node - "$work" <<'EOF'
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const dir = process.argv[2];
let state = 42;
const random = (n) =>
  Buffer.from(Array.from({ length: n }, () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state >>> 24;
  }));
const log = (n, from = 0) => {
  let text = '';
  for (let i = from; text.length < n; i++)
    text += `{"level":"info","n":${i},"msg":"request handled","path":"/api/v4/items/${(i * 7919) % 1000}"}\n`;
  return Buffer.from(text).subarray(0, n);
};
const KIB = 1024;
writeFileSync(join(dir, 'empty'), Buffer.alloc(0));
writeFileSync(join(dir, 'text-1k'), log(1000));
// Text with random runs (literals), then a block of one byte (an RLE
// block), then more of both: 300 KiB, three blocks.
writeFileSync(join(dir, 'mixed-300k'), Buffer.concat([
  log(48 * KIB), random(16 * KIB), log(64 * KIB, 5000),
  Buffer.alloc(128 * KIB, 'z'),
  log(20 * KIB, 9000), random(12 * KIB), log(12 * KIB, 12000),
]));
// 40 MiB of log text repeating every 64 KiB: an attachment that compresses.
const page = log(64 * KIB);
writeFileSync(join(dir, 'attachment-40m'), Buffer.concat(Array(640).fill(page)));
EOF

mkdir -p "$target"
z() { zstd -q -f "$@"; }
z -3 "$work/empty" -o "$target/empty.zst"
z -3 "$work/text-1k" -o "$target/text-1k.zst"
# Read from a pipe the size is unknown: a window descriptor, no content size.
zstd -q --long=24 -c <"$work/text-1k" >"$target/text-1k-long.zst"
z -3 "$work/mixed-300k" -o "$target/mixed-300k.zst"
zstd -q -19 --no-check -c <"$work/mixed-300k" >"$target/mixed-300k-stream.zst"
z -3 "$work/attachment-40m" -o "$target/attachment-40m.zst"

{
  echo '{'
  sep=''
  for f in empty text-1k text-1k-long mixed-300k mixed-300k-stream attachment-40m; do
    plain="$work/${f%-long}"
    plain="${plain%-stream}"
    printf '%s  "%s.zst": { "bytes": %s, "sha256": "%s" }' "$sep" "$f" \
      "$(stat -c %s "$plain")" "$(sha256sum "$plain" | cut -d' ' -f1)"
    sep=$',\n'
  done
  printf '\n}\n'
} >"$target/index.json"
echo "wrote $(ls "$target" | wc -l) files into ${target#"$root"/} ($(zstd --version))"
