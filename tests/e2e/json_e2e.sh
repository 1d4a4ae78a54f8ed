#!/bin/sh
# The JSON of every mode has the fields docs/json.md lists, in its order:
# the same set wherever the same thing is printed (a count and a merged
# count: "unique" with --unique only), and each value of its type.
# usage: json_e2e.sh PATH/TO/nqueens
set -u
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"

# keys LINE: the keys of a flat JSON object, in order, space-separated
keys() { printf '%s\n' "$1" | grep -o '"[a-z_]*":' | tr -d '":' | tr '\n' ' ' | sed 's/ $//'; }
# fields MODE WANT LINE...: every line has exactly the keys WANT
fields() {
  what=$1 want=$2
  shift 2
  for line in "$@"; do
    got=$(keys "$line")
    [ "$got" = "$want" ]; ok=$((! $?))
    report "$what: $want" $ok
    [ $ok -eq 1 ] || echo "  got: $got  ($line)"
  done
}

fields "count" "n total method seconds device" "$("$bin" --json 8)" "$("$bin" --json -m join 12)"
fields "count -u" "n total unique method seconds device" "$("$bin" --json -u 8)"
"$bin" --part 1/2 --json 10 >"$work/p1.json"
"$bin" --part 2/2 --json 10 >"$work/p2.json"
"$bin" --part 1/2 --json -m join 10 >"$work/j1.json"
"$bin" --part 2/2 --json -m join 10 >"$work/j2.json"
fields "--part (a method with unique counts)" \
  "n total unique method part parts unit_list_version seconds check" "$(cat "$work/p1.json")"
fields "--part (a method of totals only)" \
  "n total method part parts unit_list_version seconds check" "$(cat "$work/j1.json")"
fields "--merge" "n total method parts" "$("$bin" --merge --json "$work"/p?.json)" \
  "$("$bin" --merge --json "$work"/j?.json)"
fields "--merge -u" "n total unique method parts" "$("$bin" --merge --json -u "$work"/p?.json)"
fields "--check" "n total unique known_total known_unique method status seconds device" "$("$bin" --check --json 8)"
fields "--check -m plain" "n total known_total known_unique method status seconds device" \
  "$("$bin" --check --json -m plain 8)"
fields "--estimate" \
  "n seconds threads method device units units_sampled exact lower_bound memory low high core_hours modelled samples text" \
  "$("$bin" --estimate --json 10)"

# the same values in every mode that prints a count of n = 10
a=$("$bin" --json -u 10 | sed 's/,"seconds".*//') b=$("$bin" --merge --json -u "$work"/p?.json | sed 's/,"parts".*//')
[ "$a" = "$b" ] && [ "$a" = '{"n":10,"total":724,"unique":92,"method":"symmetry"' ]
report "a count and a merged count print the same fields and values" $((! $?))

# types: integers without quotes or fractions, strings quoted, booleans
line=$("$bin" --estimate --json 10)
printf '%s\n' "$line" | grep -Eq '^\{"n":10,"seconds":[0-9]+\.[0-9]{3},"threads":[0-9]+,"method":"[a-z]+","device":"(cpu|gpu)","units":[0-9]+,"units_sampled":[0-9]+,"exact":(true|false),"lower_bound":(true|false),"memory":[0-9]+,"low":[0-9]+\.[0-9]{3},"high":([0-9]+\.[0-9]{3}|null),"core_hours":[0-9.e+-]+,"modelled":(true|false),"samples":[0-9]+,"text":"[^"]*"\}$'
report "--estimate: types" $((! $?))
grep -Eq '^\{"n":10,"total":[0-9]+,"unique":[0-9]+,"method":"symmetry","part":1,"parts":2,"unit_list_version":[0-9]+,"seconds":[0-9]+\.[0-9]{3},"check":"[0-9a-f]{16}"\}$' "$work/p1.json"
report "--part: types" $((! $?))
"$bin" --check --json 8 | grep -Eq '^\{"n":8,"total":92,"unique":12,"known_total":92,"known_unique":12,"method":"symmetry","status":"ok","seconds":[0-9]+\.[0-9]{3},"device":"cpu"\}$'
report "--check: types" $((! $?))

# the solution modes: one object per solution, per placement found wrong
# and a summary (docs/json.md; json_doc_e2e checks the page's tables
# against every mode)
[ "$("$bin" --list --json --limit 2 8 6)" = '{"n":8,"columns":[1,5,8,6,3,7,2,4]}
{"n":8,"columns":[1,6,8,3,7,4,2,5]}
{"n":6,"columns":[2,4,6,1,3,5]}
{"n":6,"columns":[3,6,2,5,1,4]}' ]
report "--list --json: n and the columns of each solution" $((! $?))
[ "$("$bin" --list --json --canonical 6)" = '{"n":6,"columns":[2,4,6,1,3,5]}' ] &&
  [ "$("$bin" --list --json 0)" = '{"n":0,"columns":[]}' ] && [ -z "$("$bin" --list --json 3)" ]
report "--list --json: --canonical, the empty board, no solution" $((! $?))
[ "$("$bin" --one --format=json 12)" = '{"n":12,"columns":[2,4,6,8,10,12,1,3,5,7,9,11]}' ]
report "--one --format=json" $((! $?))
[ "$("$bin" --random --json --seed 42 10)" = '{"n":10,"seed":42,"columns":[6,2,9,1,8,5,3,10,7,4]}' ]
report "--random --json: the seed it was drawn with" $((! $?))
line=$("$bin" --random --json 12)
seed=$(printf '%s\n' "$line" | sed -n 's/^{"n":12,"seed":\([0-9]*\),"columns":\[.*\]}$/\1/p')
[ -n "$seed" ] && [ "$("$bin" --random --json --seed "$seed" 12)" = "$line" ]
report "--random --json without --seed: its seed draws it again" $((! $?))
out=$("$bin" --one --json 100000 | sed 's/^{"n":100000,"columns":\[//; s/\]}$//' | tr ',' ' ')
[ "$out" = "$("$bin" --one 100000)" ]
report "--one --json 100000: the same columns as the line format" $((! $?))

printf '2 4 1 3\n1 2 3\n' >"$work/a b\"c.txt"
printf '2 4 1 3\n1 x\n' | "$bin" --verify --json 4 "$work/a b\"c.txt" - >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && [ ! -s "$work/err" ] && [ "$(cat "$work/out")" = "{\"file\":\"$work/a b\\\"c.txt\",\"line\":2,\"verdict\":\"invalid\",\"fault\":\"length\",\"reason\":\"wrong length: 3 queens, expected 4\"}
{\"file\":\"-\",\"line\":2,\"verdict\":\"malformed\",\"fault\":\"character\",\"reason\":\"position 3: unexpected character 'x' (columns are numbers from 1, separated by spaces or tabs)\"}
{\"valid\":2,\"invalid\":1,\"malformed\":1}" ]
report "--verify --json: a line per bad placement on stdout, the file escaped, status 2" $((! $?))
[ $status -eq 2 ] || { echo "  status $status"; cat "$work/out" "$work/err"; }
for fault in "1 1:column" "1 2 3:diagonal" "5 1 2:range" "0:zero" "99999999999 1:overflow"; do
  out=$(echo "${fault%:*}" | "$bin" --verify --json | head -n 1)
  case $out in *"\"fault\":\"${fault##*:}\""*) ok=1 ;; *) ok=0; echo "  $out" ;; esac
  report "--verify --json: '${fault%:*}' is a fault of kind ${fault##*:}" $ok
done
[ "$(echo 2 4 1 3 | "$bin" --verify --json)" = '{"valid":1,"invalid":0,"malformed":0}' ]
report "--verify --json: all valid, the summary alone" $((! $?))

# drawings are for people: refused with JSON, whichever way it is asked
for args in "--list --board --json 4" "--one --compact --format=json 5" "--json --random --board 8" \
            "--list --format=labels 4"; do
  # shellcheck disable=SC2086
  "$bin" $args >"$work/out" 2>"$work/err"; status=$?
  [ $status -eq 2 ] && [ ! -s "$work/out" ] && grep -q "cannot be used with" "$work/err"
  report "nqueens $args: refused" $((! $?))
done

# strings need no escape: no '"', '\' or control character inside; all
# but the estimate's text hold only letters, digits and _ (docs/json.md)
{ "$bin" --json -u 8; cat "$work/p1.json" "$work/j1.json"; "$bin" --merge --json "$work"/p?.json
  "$bin" --check --json 8; "$bin" --estimate --json 8; "$bin" --estimate --json -m plain 20
} >"$work/all.json" 2>/dev/null
LC_ALL=C sed 's/,"text":"[]-~ -!#-[]*"}$/}/' "$work/all.json" | grep -o ':"[^"]*"' | sort -u >"$work/strings"
[ "$(wc -l <"$work/all.json")" -eq 7 ] && [ -s "$work/strings" ] &&
  ! grep -v -x ':"[A-Za-z0-9_]*"' "$work/strings" &&
  [ "$(grep -c '"text":"' "$work/all.json")" -eq 2 ]
report "strings: letters, digits and _, but the estimate's text, which needs no escape" $((! $?))

# the documentation lists every field that is printed
doc=$(dirname "$0")/../../docs/json.md
for k in n total unique method seconds part parts unit_list_version check known_total \
         known_unique status threads device units units_sampled exact lower_bound memory low \
         high core_hours modelled samples text; do
  grep -q "^| \`$k\` " "$doc" || { echo "  docs/json.md lacks $k"; false; }
  report "docs/json.md describes $k" $((! $?))
done

finish
