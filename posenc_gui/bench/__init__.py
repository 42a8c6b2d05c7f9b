"""Benchmark: drive the real main window offscreen and time every tab and page.

``python -m posenc_gui.bench [--json] [--quick] [--profile] [--sizes L,D,H ...] [--device cpu]``
changes every control of each tab in scripted steps at three sizes and reports, per tab and page:
latency from control change to the views painted (p50, p95; where a frame is heavy, the coarse
frame's and the exact one's), compute time (``--profile``: with the GUI thread's draw and
paint), the longest event-loop stall, and whether each meets its target; plus peak memory, the
time from launch to the first drawn frame, how fast the command line answers ``--help`` and
refuses a bad argument, and baselines measured in the same process: each page's floor (its
views in bare pyqtgraph, new data set and painted per step), the same with the page's look the
plain pyqtgraph way (titles, axis labels, the grid, a legend, 2 px lines), and the seed's way
(numpy and matplotlib redrawing the Absolute tab's four panels). It prints figures; it asserts
nothing."""

import time

LAUNCHED = time.perf_counter()  # before the heavy imports: "launch" includes them
