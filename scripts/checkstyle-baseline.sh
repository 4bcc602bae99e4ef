#!/usr/bin/env bash
# Rewrites config/checkstyle/suppressions.xml, the checkstyle baseline: for each rule, the files
# that break it today. The build (validate) then fails on any other file that breaks a rule.
#
#   scripts/checkstyle-baseline.sh           rewrite the baseline from the tree as it is
#   scripts/checkstyle-baseline.sh --count   only print the violations per rule, baseline ignored
#
# Meant to shrink the list: fix a file, rerun, and it drops off. Growing it hides new code from
# the checks; do that only when merging code that was written before a rule existed, and say so
# in the commit. A file is named by module, main or test, and file name, not by package, so a
# class that moves to another package keeps its entry. Runs `mvn -o validate` over every module.
set -euo pipefail
cd "$(dirname "$0")/.."

supp=config/checkstyle/suppressions.xml
empty=$(mktemp --suffix=.xml)
trap 'rm -f "$empty"' EXIT
cat > "$empty" <<'XML'
<?xml version="1.0"?>
<!DOCTYPE suppressions PUBLIC "-//Checkstyle//DTD SuppressionFilter Configuration 1.2//EN" "https://checkstyle.org/dtds/suppressions_1_2.dtd">
<suppressions/>
XML

mvn -B -q -o validate -Dcheckstyle.failOnViolation=false -Dframewire.checkstyle.suppressions="$empty" >/dev/null

# module|set|file|rule, one line per violation, from each module's report
root=$(pwd)
violations=$(for report in */target/checkstyle-result.xml; do
  awk -v root="$root/" '
    /<file name=/ { match($0, /name="[^"]*"/); path = substr($0, RSTART + 6, RLENGTH - 7); sub(root, "", path) }
    /<error / { match($0, /source="[^"]*"/); rule = substr($0, RSTART + 8, RLENGTH - 9)
                sub(/.*\./, "", rule); sub(/Check$/, "", rule)
                n = split(path, p, "/"); print p[1] "|" p[3] "|" p[n] "|" rule }' "$report"
done)

echo "violations per rule (files):"
if [ -z "$violations" ]; then echo "  none"; else
  echo "$violations" | awk -F'|' '{ v[$4]++; if (!seen[$0]++) f[$4]++ } END { for (r in v) printf "  %-20s %4d (%d)\n", r, v[r], f[r] }' | sort
fi
[ "${1:-}" = "--count" ] && exit 0

{
  cat <<'XML'
<?xml version="1.0"?>
<!DOCTYPE suppressions PUBLIC
    "-//Checkstyle//DTD SuppressionFilter Configuration 1.2//EN"
    "https://checkstyle.org/dtds/suppressions_1_2.dtd">
<!--
  The checkstyle baseline: files that broke a rule when the rule came, written by
  scripts/checkstyle-baseline.sh. Fix a file and rerun it to take the file off; do not add files
  by hand. Each entry names the module, main or test, and the file name (not the package).
XML
  if [ -n "$violations" ]; then
    echo "$violations" | awk -F'|' '{ v[$4]++ } END { for (r in v) printf "  %s: %d violations\n", r, v[r] }' | sort
  fi
  echo "-->"
  echo "<suppressions>"
  if [ -n "$violations" ]; then
    echo "$violations" | sort -u | sort -t'|' -k4,4 -k1,1 -k2,2 -k3,3 | awk -F'|' '{
      file = $3; gsub(/\./, "\\.", file)
      printf "  <suppress checks=\"%s\" files=\"%s[\\\\/]src[\\\\/]%s[\\\\/].*[\\\\/]%s$\"/>\n", $4, $1, $2, file }'
  fi
  echo "</suppressions>"
} > "$supp"
echo "wrote $supp"
