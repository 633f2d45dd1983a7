#!/usr/bin/env bash
# Refreshes the project's copy of the captured Sentry SDK and sentry-cli
# requests from the shared/ folder beside the workspace, their source. Tests
# read only the copy, so a clone with nothing beside it passes.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source_dir="${1:-$root/../shared/fixtures}"
target="$root/libs/shared/testing/fixtures"
for set in sentry sentry-cli; do
  [ -d "$source_dir/$set" ] || { echo "no $source_dir/$set" >&2; exit 1; }
  rm -rf "${target:?}/$set"
  mkdir -p "$target"
  cp -R "$source_dir/$set" "$target/$set"
  chmod -R u+w "$target/$set"
done
echo "copied sentry and sentry-cli fixtures into ${target#"$root"/}"
