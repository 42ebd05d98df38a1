"""Padding and length-bucketed batching shared by training, generation and scoring."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch

__all__ = ["pad_sources", "pad_targets", "bucketed_batches", "sorted_batches"]


def pad_sources(seqs: Sequence[Sequence[int]], pad_id: int,
                device: torch.device) -> dict[str, torch.Tensor]:
    """Right-padded ``input_ids`` and ``attention_mask``."""
    width = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(seqs), width), dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, :len(s)] = torch.as_tensor(list(s), dtype=torch.long)
        mask[i, :len(s)] = 1
    return {"input_ids": ids.to(device), "attention_mask": mask.to(device)}


def pad_targets(seqs: Sequence[Sequence[int]], pad_id: int, start_id: int,
                device: torch.device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(decoder_input_ids, labels, label_mask)`` for teacher forcing: labels right-padded,
    decoder inputs = labels shifted right behind the start token; ``label_mask`` is 1 on real
    target tokens."""
    width = max(len(s) for s in seqs)
    labels = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(seqs), width), dtype=torch.long)
    for i, s in enumerate(seqs):
        labels[i, :len(s)] = torch.as_tensor(list(s), dtype=torch.long)
        mask[i, :len(s)] = 1
    dec = torch.full_like(labels, pad_id)
    dec[:, 0] = start_id
    dec[:, 1:] = labels[:, :-1]
    return dec.to(device), labels.to(device), mask.to(device)


def bucketed_batches(lengths: Sequence[int], batch_size: int, seed: int, epoch: int,
                     bucket: int = 50) -> list[list[int]]:
    """Shuffled batches of similar length (deterministic in ``seed`` and ``epoch``): the data
    are shuffled, cut into chunks of ``bucket`` batches, each chunk sorted by length and cut
    into batches, and the batch order shuffled."""
    rng = np.random.default_rng([seed, epoch])
    idx = rng.permutation(len(lengths))
    chunk = batch_size * bucket
    batches: list[list[int]] = []
    for s in range(0, len(idx), chunk):
        part = sorted(idx[s:s + chunk].tolist(), key=lambda i: (lengths[i], i))
        batches.extend(part[j:j + batch_size] for j in range(0, len(part), batch_size))
    order = rng.permutation(len(batches))
    return [batches[o] for o in order]


def sorted_batches(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """Batches of indices sorted by length (inference: less padding); the caller restores
    the original order."""
    idx = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    return [idx[j:j + batch_size] for j in range(0, len(idx), batch_size)]
