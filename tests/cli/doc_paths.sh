#!/usr/bin/env bash
# Documentation hygiene. Usage: doc_paths.sh SOURCE_DIR; prints every problem and exits 1 if
# there is any, else prints "ok".
# 1. Every repository path docs/*.md and README.md write in backticks (a word starting with
#    reference/, verify/, formats/, cli/, corpora/, fast/, docs/, tests/, scripts/, examples/,
#    peers/, benchmarks/, fuzz/, viewer/ or cmake/) exists, and so does every relative Markdown
#    link's target. In a path, "..." (or "…") stands for any folders in between
#    (`reference/.../robust.hpp`), `{a,b}` for each of a and b, `<name>` and globs for any name.
#    CHANGELOG.md is the history and names what no longer exists: it is not checked.
# 2. No file but CHANGELOG.md narrates history by number ("session" or "issue" and a number)
#    or points at a folder outside the repository (a relative path into a sibling "shared").
set -euo pipefail
root=${1:?usage: doc_paths.sh SOURCE_DIR}
cd "$root"
problems=0
problem() {
  echo "$*"
  problems=$((problems + 1))
}

prefixes='reference|verify|formats|cli|corpora|fast|docs|tests|scripts|examples|peers|benchmarks|fuzz|viewer|cmake'

# The alternatives of the first {a,b,...} in $1, each expanded again (one per line).
expand_braces() {
  local p=$1
  if [[ $p =~ ^([^{]*)\{([^{}]*)\}(.*)$ ]]; then
    local head=${BASH_REMATCH[1]} alts=${BASH_REMATCH[2]} tail=${BASH_REMATCH[3]} alt
    IFS=, read -ra parts <<<"$alts"
    for alt in "${parts[@]}"; do expand_braces "$head$alt$tail"; done
  else
    printf '%s\n' "$p"
  fi
}

# Whether one brace-free path pattern names something that exists.
pattern_exists() {
  local p=$1
  if [[ $p == *...* ]]; then
    local before=${p%%...*} after=${p#*...}
    before=${before%/}
    after=${after#/}
    after=${after//.../*}
    [ -e "${before:-.}" ] || return 1
    [ -z "$after" ] && return 0
    [ -n "$(find "${before:-.}" -path "*/$after" -print -quit)" ]
  elif [[ $p == *[*?[]* ]]; then
    compgen -G "$p" >/dev/null
  else
    [ -e "$p" ]
  fi
}

# Whether every alternative of a path as written in the documentation exists.
path_exists() {
  local p=$1 alt
  p=${p//…/...}
  p=$(sed -E 's/<[^>]*>/*/g' <<<"$p")
  while read -r alt; do pattern_exists "$alt" || return 1; done < <(expand_braces "$p")
}

docs=(README.md docs/*.md)
for doc in "${docs[@]}"; do
  # Backticked spans, each word that starts with a repository folder.
  while IFS=: read -r line span; do
    read -ra words <<<"$span"             # (no glob expansion)
    for word in "${words[@]}"; do
      word=${word#*=}                     # --corpus=corpora/builtin
      word=${word#[(\"\']}
      [[ $word =~ ^($prefixes)/ ]] || continue
      word=${word%%#*}                    # an anchor
      word=$(sed -E 's/[.,;:)"'"'"']+$//; s/:[0-9]+$//' <<<"$word")
      path_exists "$word" || problem "$doc:$line: \`$word\` does not exist"
    done
  done < <(grep -noE '`[^`]+`' "$doc" | sed -E 's/`//g')
  # Relative Markdown links, from the document's own folder.
  while IFS=: read -r line target; do
    target=${target#](}
    target=${target%)}
    target=${target%% *}                  # a title after the target
    target=${target%%#*}
    case $target in '' | http://* | https://* | mailto:*) continue ;; esac
    [ -e "$(dirname "$doc")/$target" ] || problem "$doc:$line: link target $target does not exist"
  done < <(grep -noE '\]\([^)]+\)' "$doc")
done

# Every file of the repository (tracked or new, not ignored), else every file but the build's.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -d '' files < <(git ls-files -z --cached --others --exclude-standard)
else
  mapfile -d '' files < <(find . -type f -not -path './.git/*' -not -path './build*' -printf '%P\0')
fi
existing=()
for f in "${files[@]}"; do
  [ "$f" = CHANGELOG.md ] || [ ! -f "$f" ] || existing+=("$f")
done
while IFS= read -r hit; do
  problem "$hit: history by number belongs in CHANGELOG.md"
done < <(printf '%s\0' "${existing[@]}" | xargs -0 grep -I -n -i -E '(session|issue) #?[0-9]' -- || true)
while IFS= read -r hit; do
  problem "$hit: points outside the repository"
done < <(printf '%s\0' "${existing[@]}" | xargs -0 grep -I -n -E '\.\./shared' -- || true)

if [ "$problems" -gt 0 ]; then
  echo "$problems problem(s)"
  exit 1
fi
echo ok
