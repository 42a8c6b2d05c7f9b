#!/usr/bin/env bash
# The README's gallery, made by the app's own export (headless):  bash docs/gallery.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export QT_QPA_PLATFORM=offscreen
python=${PYTHON:-python}
mkdir -p docs/gallery
"$python" main.py export --tab compare --view similarity --seq-len 256 --caption \
    --out docs/gallery/compare-en-light.png
"$python" main.py export --tab compare --view similarity --seq-len 256 --caption \
    --theme dark --lang zh_CN --out docs/gallery/compare-zh_CN-dark.png
"$python" main.py export --tab rope --view rotation --seq-len 32 --lang zh_CN \
    --out docs/gallery/rope-rotation-zh_CN-light.png
"$python" main.py export --tab extension --view ratio --preset "Llama-3.1-8B" --caption \
    --theme dark --out docs/gallery/extension-ratio-en-dark.png
"$python" main.py export --tab relative --view alibi_curve --presentation \
    --out docs/gallery/relative-alibi-en-presentation.png
"$python" main.py export --tab absolute --view similarity --seq-len 128 --lang zh_CN \
    --theme dark --out docs/gallery/absolute-similarity-zh_CN-dark.png
