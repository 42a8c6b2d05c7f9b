#!/usr/bin/env bash
# Every view of posenc-gui as a PNG, in both themes, both languages and presentation mode, for
# slides and notes (a contact sheet: look through the folder after a change to the figures):
#
#   bash docs/figures.sh [OUT_DIR [export options...]]
#   bash docs/figures.sh figures --preset "Llama-3.1-8B" --seq-len 4096
#
# writes OUT_DIR/{en,zh_CN}-{light,dark}[-presentation]/TAB-VIEW.png (default: figures) at 2×
# resolution, each with a caption naming its parameters. POSENC_VIEWS="TAB VIEW" limits it to
# one view. Headless; runs one export per CPU core at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
export QT_QPA_PLATFORM=offscreen
out=${1:-figures}
options=("${@:2}")
python=${PYTHON:-python}
views=${POSENC_VIEWS:-$("$python" main.py --list-views)}
failed=0
for lang in en zh_CN; do
    for theme in light dark; do
        for mode in normal presentation; do
            folder="$out/$lang-$theme" look=()
            if [ "$mode" = presentation ]; then folder+="-presentation" look=(--presentation); fi
            mkdir -p "$folder"
            while read -r tab view; do
                while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || failed=1; done
                "$python" main.py export --tab "$tab" --view "$view" --theme "$theme" \
                    --lang "$lang" "${look[@]}" --scale 2 --caption "${options[@]}" \
                    --out "$folder/$tab-$view.png" &
            done <<<"$views"
        done
    done
done
while (($(jobs -rp | wc -l) > 0)); do wait -n || failed=1; done
echo "figures in $out/"
exit "$failed"
