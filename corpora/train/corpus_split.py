# SPDX-License-Identifier: GPL-3.0-or-later
"""The training / held-out split shared by train_char_model.py and ngram_perplexity.py."""


def split_corpus(text, fraction, mode):
    """Returns (train_text, heldout_text).

    tail:   the held-out text is the last `fraction` of the corpus, starting at a line boundary (kjv: one verse
            per line, so the held-out text is the end of the New Testament).
    blocks: the corpus is cut into blocks separated by a blank line (tang-song: one poem per block) and every
            round(1/fraction)-th block (the last of each group) is held out, so the held-out poems are spread
            over the whole collection instead of being only the Song ci at its end. Each block keeps its
            trailing blank line; the training text is the remaining blocks in their original order.
    """
    if mode == "tail":
        cut = int(len(text) * (1.0 - fraction))
        nl = text.find("\n", cut)
        split = len(text) if nl < 0 else nl + 1
        return text[:split], text[split:]
    if mode == "blocks":
        parts = text.split("\n\n")
        blocks = [p + "\n\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
        k = max(2, round(1.0 / fraction))
        train = "".join(b for i, b in enumerate(blocks) if i % k != k - 1)
        held = "".join(b for i, b in enumerate(blocks) if i % k == k - 1)
        return train, held
    raise ValueError(f"unknown held-out mode {mode!r}")
