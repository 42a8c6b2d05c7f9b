"""Exact display-resolution means of sinusoids over runs of consecutive positions.

When a view has fewer pixels than positions, each pixel shows the mean of the positions it
covers, never a strided sample (which aliases fast sinusoids into slow waves that are not there).
The mean of ``e^{i p ω}`` over ``p = a … a+n-1`` is a geometric series with a closed form:

    (1/n) Σ e^{i p ω} = e^{i (a + (n-1)/2) ω} · sin(n ω / 2) / (n · sin(ω / 2))
"""

from __future__ import annotations

import torch

from posenc_gui.encodings._checks import check_int


def bins(length: int, max_bins: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Split ``range(length)`` into at most ``max_bins`` runs of near-equal size.

    Returns ``(starts, counts)``, int64 tensors of shape ``[min(length, max_bins)]``; each run is
    ``starts[b] … starts[b] + counts[b] - 1``. With ``length <= max_bins`` every run is one
    position, so binned values equal the full-resolution ones.
    """
    length = check_int("length", length, 1)
    n_bins = min(length, check_int("max_bins", max_bins, 1))
    edges = torch.div(
        torch.arange(n_bins + 1, dtype=torch.int64) * length, n_bins, rounding_mode="floor"
    )
    return edges[:-1], edges[1:] - edges[:-1]


def mean_phasor(starts: torch.Tensor, counts: torch.Tensor, inv_freq: torch.Tensor) -> torch.Tensor:
    """Mean of ``exp(i p ω)`` over each run of positions, for each frequency.

    ``starts``, ``counts``: ``[B]``; ``inv_freq``: ``[F]`` (rad / position, in (0, π)).
    Returns complex128 ``[B, F]``; its real part is the mean cosine, its imaginary part the
    mean sine. Exact for runs of length 1 (``e^{i a ω}``).
    """
    omega = inv_freq.to(torch.float64)[None, :]
    start = starts.to(torch.float64)[:, None]
    n = counts.to(torch.float64)[:, None]
    # ω < π, so sin(ω/2) > 0 and the Dirichlet ratio is well conditioned in float64; for n = 1
    # it is exactly 1 and the phase exactly a·ω, so single positions match the full table.
    ratio = torch.sin(n * omega / 2) / (n * torch.sin(omega / 2))
    phase = (start + (n - 1.0) / 2.0) * omega
    return torch.complex(ratio * torch.cos(phase), ratio * torch.sin(phase))


def run_means(values: torch.Tensor, starts: torch.Tensor, counts: torch.Tensor) -> torch.Tensor:
    """Mean of ``values`` (``[N, ...]``) over each run of rows, float64 ``[B, ...]``.

    For quantities with no closed form (rounding errors, say); uses a running sum.
    """
    total = torch.cumsum(values.double(), dim=0)
    total = torch.cat((torch.zeros_like(total[:1]), total))
    ends = starts + counts
    shape = (-1,) + (1,) * (values.ndim - 1)
    return (total[ends] - total[starts]) / counts.double().reshape(shape)
