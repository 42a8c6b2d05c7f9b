#!/usr/bin/env bash
# The README's gallery and window screenshots, made by the app itself (headless):
#   bash docs/gallery.sh
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
# The window screenshots: each starts from the defaults, then applies its options.
"$python" main.py --tokens --screenshot docs/absolute-tab.png
"$python" main.py --session docs/relative-scores.json --screenshot docs/relative-scores.png
"$python" main.py --tab rope --page rotation --seq-len 256 --screenshot docs/rope-rotation.png
"$python" main.py --tab rope --page precision --seq-len 4096 --screenshot docs/rope-precision.png
"$python" main.py --preset "Llama-3.1-8B" --tab extension \
    --screenshot docs/extension-llama31.png
"$python" main.py --preset "Gemma-3-27B (local θ 1e4, global θ 1e6 ×8)" --tab extension \
    --page layers --screenshot docs/extension-layers-gemma3.png
"$python" main.py --preset "Qwen3-VL-8B (M-RoPE interleaved 24/20/20)" --page sequence \
    --screenshot docs/multimodal-qwen3vl.png
"$python" main.py --preset "Pixtral-12B vision encoder (2-D axial, 64 × 64 patches)" \
    --page scores --screenshot docs/multimodal-pixtral-scores.png
