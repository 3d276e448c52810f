"""The battle report's pictures (matplotlib, Agg backend: no display, no network), as PNG
bytes.

- :func:`battle_png`: each side's remaining hit points at the start and at the end of every
  round (top), and each damaged ship's damage after every event, with the rounds marked
  (bottom);
- :func:`dice_png`: each player's dice (per source and die) against a fair die's expected
  count per face.

Both take the model that host_tools/files/report.py's ``analyse`` returns (a dict: ``sides``,
``ships``, ``hp_rounds``, ``records``, ``base_seq``, ``start_round``, ``start_damage``,
``stats``) and raise nothing but
matplotlib's own errors.
"""

import io

from referee.texts import plural

SIDE_COLOURS = ("#1f5fbf", "#bf3f1f")


def _pyplot():
    import matplotlib as mpl

    mpl.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    _pyplot().close(fig)
    return buf.getvalue()


def battle_png(model):
    """PNG bytes: hit points per side per round, and the ships' damage timeline."""
    plt = _pyplot()
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7.5))
    hr = model["hp_rounds"]
    xs = list(range(len(hr["labels"])))
    for s, name in enumerate(model["sides"]):
        top.plot(xs, hr["values"][s], marker="o", color=SIDE_COLOURS[s], label=name)
    top.set_xticks(xs)
    top.set_xticklabels(hr["labels"], fontsize=8)
    top.set_ylabel("hit points left")
    top.set_ylim(bottom=0)
    top.set_title("Each side's remaining hit points")
    top.grid(alpha=0.3)
    top.legend(loc="best", fontsize=8)

    recs = model["records"]
    first = model["base_seq"]
    damaged = [
        i
        for i, sh in enumerate(model["ships"])
        if model["start_damage"][i] or any(r["damage"][i] for r in recs)
    ]
    seqs = [first] + [r["seq"] for r in recs]
    styles = {0: "-", 1: "--"}
    for i in damaged:
        sh = model["ships"][i]
        ys = [model["start_damage"][i]] + [r["damage"][i] for r in recs]
        bottom.step(
            seqs,
            ys,
            where="post",
            linestyle=styles[sh["side"]],
            label="%s (%s)" % (sh["name"], model["sides"][sh["side"]]),
        )
    rnd = model["start_round"]
    for r in recs:  # a round is marked at its first event played (the end of the round
        played = r.get("played_round", r["round"])  # before it, with its damage, is its own)
        if played != rnd:
            rnd = played
            bottom.axvline(r["seq"] - 0.5, color="grey", alpha=0.4, linewidth=0.8)
            bottom.text(
                r["seq"] - 0.5, 0, " round %d" % rnd, fontsize=7, color="grey", va="bottom"
            )
    bottom.set_xlabel("event")
    bottom.set_ylabel("damage")
    bottom.set_title("Each ship's damage" if damaged else "No ship took damage")
    bottom.grid(alpha=0.3)
    if damaged:
        bottom.legend(loc="upper left", fontsize=7, ncol=2)
    if len(seqs) > 1:
        bottom.set_xlim(seqs[0], seqs[-1] + 0.5)
    fig.tight_layout()
    return _png(fig)


def dice_png(model):
    """PNG bytes: observed count per face of each group of dice beside the fair expectation,
    or None when the game has no dice."""
    groups = model["stats"]["groups"]
    if not groups:
        return None
    plt = _pyplot()
    n = len(groups)
    cols = 2 if n > 1 else 1
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(9, 2.6 * rows), squeeze=False)
    for k, gr in enumerate(groups):
        ax = axes[k // cols][k % cols]
        faces = list(range(1, gr["faces"] + 1))
        ax.bar(faces, gr["counts"], color=SIDE_COLOURS[gr["side"]], alpha=0.8)
        ax.axhline(
            gr["n"] / gr["faces"],
            color="black",
            linestyle=":",
            linewidth=1,
            label="fair: %.2f a face" % (gr["n"] / gr["faces"]),
        )
        ax.set_title(
            "%s, %s d%d (%s, p = %.3f)"
            % (
                model["sides"][gr["side"]],
                gr["source"],
                gr["faces"],
                plural(gr["n"], "roll"),
                gr["p"],
            ),
            fontsize=9,
        )
        ax.set_xticks(faces)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=7)
    for k in range(n, rows * cols):
        axes[k // cols][k % cols].axis("off")
    fig.tight_layout()
    return _png(fig)
