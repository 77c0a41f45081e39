#!/usr/bin/env bash
# Prints one line per project from an `npm test` log (nx run-many over vitest): its test files and
# tests, and the totals. Used by .ci/run so the end of the CI log says how many tests ran.
set -euo pipefail
log="${1:?usage: test-summary.sh <npm test log>}"
sed -E 's/\x1b\[[0-9;]*m//g' "$log" | awk '
  /^> nx run [^ ]+:test/ { project = $4; sub(/:test$/, "", project); next }
  # What failed, named, so a log cut short still shows it (a file whose hook failed counts as a
  # failed file with no failed test).
  # With the error and the line of the spec it came from, so a failure in CI can be read without
  # the rest of the log.
  /^ *FAIL / {
    line = $0; sub(/^ +/, "", line); current = 0
    if (!(line in seen)) { seen[line] = 1; fails[++nf] = project ": " line; current = nf }
    next
  }
  current && !(current in reason) && /[^ ]/ { reason[current] = substr($0, 1, 300); next }
  current && !(current in where) && /^ *❯ / { where[current] = $0; sub(/^ *❯ /, "", where[current]); current = 0; next }
  /^ *Test Files / {
    files[project] = $0; sub(/^ *Test Files +/, "", files[project])
    for (i = 1; i <= NF; i++) {
      if ($(i + 1) ~ /^passed/) files_passed += $i
      if ($(i + 1) ~ /^failed/) files_failed += $i
    }
    next
  }
  /^ *Tests / {
    line = $0; sub(/^ *Tests +/, "", line); tests[project] = line; order[++n] = project
    for (i = 1; i <= NF; i++) {
      if ($(i + 1) ~ /^passed/) passed += $i
      if ($(i + 1) ~ /^failed/) failed += $i
      if ($(i + 1) ~ /^skipped/) skipped += $i
    }
  }
  END {
    if (nf) {
      print "failed:"
      for (i = 1; i <= nf; i++) {
        print "  " fails[i]
        if (i in reason) print "      " reason[i] ((i in where) ? "  (at " where[i] ")" : "")
      }
      print ""
    }
    for (i = 1; i <= n; i++) printf "%-22s files: %-28s tests: %s\n", order[i], files[order[i]], tests[order[i]]
    printf "total: %d projects ran tests; %d passed, %d failed, %d skipped\n", n, passed, failed, skipped
    # The same totals in vitest'"'"'s own summary format, for readers (and tools) that look for it.
    printf "\n Test Files  %s%d passed (%d)\n", files_failed ? files_failed " failed | " : "", files_passed, files_passed + files_failed
    printf "      Tests  %s%d passed%s (%d)\n", failed ? failed " failed | " : "", passed, skipped ? " | " skipped " skipped" : "", passed + failed + skipped
    # The plain closing line CI readers take the count from (.ci/run prints it last again).
    printf "\ntests: %d passed, %d failed, %d skipped\n", passed, failed, skipped
  }'
