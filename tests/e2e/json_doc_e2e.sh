#!/bin/sh
# docs/json.md against the program: every mode that prints JSON is run
# (several ways, so that every field that is printed only sometimes shows
# up), and each line it prints is checked against the tables of its
# section of the page: one valid JSON object per line, no field that the
# page does not list, the fields in the page's order, each value of the
# type the page gives, and every field the page lists printed at least
# once. So a field added, dropped, renamed, moved or retyped on either
# side fails here until the other side follows.
#
# The page's convention, which this test reads: each mode is a section
# "### NAME: `nqueens ...`"; its tables have the header
# "| field | type | stable | meaning |", one row per field or per run of
# fields of one type (`a`, `b`), in the order printed; the type is integer,
# number, "number or null", string, boolean or "array of integers". A
# mode that prints several kinds of line has a table per kind, and a line
# belongs to the table whose first field is its first field.
# usage: json_doc_e2e.sh PATH/TO/nqueens SOURCE_DIR PATH/TO/checkpoint_tamper
set -u
bin=$1 src=$2 tamper=$3
for v in bin src tamper; do  # the runs below start in a scratch folder
  eval "case \$$v in /*) ;; *) $v=\$PWD/\$$v ;; esac"
done
. "$(dirname "$0")/../helpers/e2e_lib.sh"
page=$src/docs/json.md

# --- the page's tables: SECTION<TAB>TABLE<TAB>FIELD<TAB>TYPE, in order ------------
awk '
  function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
  /^### / {
    section = substr($0, 5); sub(/:.*/, "", section); table = 0; intable = 0; next
  }
  /^\| field \| type \|/ { if (section != "") { table++; intable = 1 } next }
  intable && /^\|---/ { next }
  intable && /^\|/ {
    split($0, cell, "|")
    names = cell[2]; type = trim(cell[3])
    while (match(names, /`[^`]*`/)) {
      printf "%s\t%d\t%s\t%s\n", section, table, substr(names, RSTART + 1, RLENGTH - 2), type
      names = substr(names, RSTART + RLENGTH)
    }
    next
  }
  { intable = 0 }
  /^## / { section = "" }
' "$page" >"$work/spec"
[ -s "$work/spec" ]; report "docs/json.md: $(wc -l <"$work/spec") documented fields read" $((! $?))
untyped=$(awk -F '\t' '$4 !~ /^(integer|number|number or null|string|boolean|array of integers)$/ {
  printf " %s/%s: \"%s\"", $1, $3, $4 }' "$work/spec")
[ -z "$untyped" ]; report "every documented field has a known type${untyped:+:$untyped}" $((! $?))

# --- every mode, run: SECTION<TAB>LINE for each JSON line printed -------------------
cd "$work" || exit 1
runs=$work/runs
: >"$runs"
run() { # SECTION COMMAND: the lines that COMMAND prints on stdout
  section=$1
  shift
  sh -c "$*" 2>/dev/null | while IFS= read -r line; do
    printf '%s\t%s\n' "$section" "$line"
  done >>"$runs"
}
nq=$bin
"$nq" --checkpoint s10.ckpt 10 >/dev/null
bad=$(${NQ_EMULATOR:-} "$tamper" j10.ckpt 10) || echo "  checkpoint_tamper failed"
"$nq" --part 1/1 --json 10 >p10.json
printf '2 4 1 3\n1 2 3\n5 1 2\n1 1\n2 4 1\n1 x\n0\n99999999999\n' >placements.txt

run "A count" "'$nq' --json 8; '$nq' --json --unique 8"
run "A part" "'$nq' --part 1/2 --json 10; '$nq' --part 2/2 --json -m join 10"
run "A merge" "'$nq' --merge --json p10.json; '$nq' --merge --json --unique p10.json"
run "A check" "'$nq' --check --json 8; '$nq' --check --json -m join 8"
run "A re-check" "'$nq' --recheck s10.ckpt --json --sample 2 --seed 1;
                  '$nq' --recheck j10.ckpt --json --pick 0,$bad"
run "An estimate" "'$nq' --estimate --json 10"
run "A listing" "'$nq' --list --json --limit 3 6 4"
run "A construction" "'$nq' --one --json 12; '$nq' --one --json 0"
run "A random solution" "'$nq' --random --json --seed 1 10"
run "A verification" "'$nq' --verify --json 4 placements.txt; echo 2 4 1 3 | '$nq' --verify --json -"

# --- each line against its table ------------------------------------------------------
# check SPEC RUNS: a line PASS or FAIL<TAB>what for each section (plain awk,
# as mawk runs it, with a small reader of one flat JSON object)
check() {
  awk -F '\t' '
    function value(   c, t) {  # the value at i: its type, or "" if invalid
      c = substr(s, i, 1)
      if (c == "\"") return text() ? "string" : ""
      if (c == "[") return list()
      if (c == "t" && substr(s, i, 4) == "true") { i += 4; return "boolean" }
      if (c == "f" && substr(s, i, 5) == "false") { i += 5; return "boolean" }
      if (c == "n" && substr(s, i, 4) == "null") { i += 4; return "null" }
      if (match(substr(s, i), /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) {
        t = substr(s, i, RLENGTH); i += RLENGTH
        return t ~ /[.eE]/ ? "number" : "integer"
      }
      return ""
    }
    function text(   c) {  # a string at i; 1 if valid
      for (i++; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "\"") { i++; return 1 }
        if (c == "\\") {
          c = substr(s, i + 1, 1)
          if (c == "u" && substr(s, i + 2, 4) ~ /^[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]$/) i += 5
          else if (index("\"\\/bfnrt", c) && c != "") i++
          else return 0
        } else if (index(ctl, c)) return 0
      }
      return 0
    }
    function list(   t, all, c) {  # an array at i: "array of integers" or "array"
      all = "array of integers"
      i++
      if (substr(s, i, 1) == "]") { i++; return all }
      for (;;) {
        t = value()
        if (t == "") return ""
        if (t != "integer") all = "array"
        c = substr(s, i, 1); i++
        if (c == "]") return all
        if (c != ",") return ""
      }
    }
    function parse(line,   k, t, c) {  # fills key[1..nk], type[]; 1 if valid
      s = line; i = 1; nk = 0
      if (substr(s, 1, 1) != "{") return 0
      i = 2
      if (substr(s, i, 1) == "}") return i == length(s)
      for (;;) {
        if (substr(s, i, 1) != "\"") return 0
        k = i
        if (!text()) return 0
        key[++nk] = substr(s, k + 1, i - k - 2)
        if (substr(s, i, 1) != ":") return 0
        i++
        t = value()
        if (t == "") return 0
        type[nk] = t
        c = substr(s, i, 1); i++
        if (c == "}") return i == length(s) + 1
        if (c != ",") return 0
      }
    }
    function fits(doc, got) {
      if (doc == "number") return got == "number" || got == "integer"
      if (doc == "number or null") return got == "number" || got == "integer" || got == "null"
      return doc == got
    }
    function bad(sec, why) { bads[sec] = bads[sec] "\n  " why; nbad[sec]++ }
    BEGIN {
      for (c = 1; c < 32; c++) ctl = ctl sprintf("%c", c)
    }
    FNR == NR {  # the page: SECTION TABLE FIELD TYPE
      sec = $1; t = $2
      if (!(sec in tables)) order[++nsec] = sec
      if (t > tables[sec]) tables[sec] = t
      pos[sec, t, $3] = ++nf[sec, t]
      field[sec, t, nf[sec, t]] = $3
      doctype[sec, t, $3] = $4
      next
    }
    {  # a run: SECTION LINE
      sec = $1; line = substr($0, length(sec) + 2); lines[sec]++
      if (!(sec in tables)) { bad(sec, "no such section in docs/json.md"); order[++nsec] = sec; next }
      if (!parse(line)) { bad(sec, "not one flat JSON object: " line); next }
      t = 0
      for (k = 1; k <= tables[sec]; k++) if (field[sec, k, 1] == key[1]) t = k
      if (!t) { bad(sec, "no table starts with \"" key[1] "\": " line); next }
      last = 0
      for (k = 1; k <= nk; k++) {
        p = pos[sec, t, key[k]]
        if (!p) { bad(sec, "\"" key[k] "\" is not documented: " line); continue }
        if (p <= last) bad(sec, "\"" key[k] "\" out of the documented order: " line)
        last = p
        if (!fits(doctype[sec, t, key[k]], type[k]))
          bad(sec, "\"" key[k] "\" is " type[k] ", documented as " doctype[sec, t, key[k]] ": " line)
        seen[sec, t, key[k]] = 1
      }
    }
    END {
      for (n = 1; n <= nsec; n++) {
        sec = order[n]
        if (!lines[sec]) bad(sec, "no run of this mode printed anything")
        for (t = 1; t <= tables[sec]; t++)
          for (k = 1; k <= nf[sec, t]; k++)
            if (!seen[sec, t, field[sec, t, k]])
              bad(sec, "\"" field[sec, t, k] "\" is documented and never printed by the runs")
        if (nbad[sec]) printf "FAIL\t%s: %d problem(s)%s\n", sec, nbad[sec], bads[sec]
        else printf "PASS\t%s: %d lines, every field as documented\n", sec, lines[sec]
      }
    }
  ' "$1" "$2"
}
check "$work/spec" "$runs" >"$work/verdicts"
sections=0
while IFS="$(printf '\t')" read -r verdict what; do
  case $verdict in
  PASS) report "$what" 1; sections=$((sections + 1)) ;;
  FAIL) report "$what" 0 ;;
  *) echo "$verdict $what" ;;
  esac
done <"$work/verdicts"
# the modes of the page: ten, or a section was lost
[ "$sections" -ge 10 ]; report "$sections sections of docs/json.md checked" $((! $?))

# --- the checker itself catches a drift ---------------------------------------------
printf 'S\t1\ta\tinteger\nS\t1\tb\tstring\n' >"$work/spec2"
for case in '{"a":1,"b":"x"}:PASS' '{"b":"x","a":1}:FAIL' '{"a":"1","b":"x"}:FAIL' \
            '{"a":1}:FAIL' '{"a":1,"b":"x","c":2}:FAIL' '{"a":1,"b":"x"} :FAIL'; do
  printf 'S\t%s\n' "${case%:*}" >"$work/runs2"
  want=${case##*:}
  got=$(check "$work/spec2" "$work/runs2" | head -n 1 | cut -f1)
  [ "$got" = "$want" ]; report "the checker says $want for ${case%:*}" $((! $?))
done

finish
