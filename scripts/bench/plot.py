"""The scale plot of the bench suite, drawn with Debian's python3-matplotlib (scripts/bench.sh
installs it): median link wall time against the number of translation units on log-log axes with
plain-number tick labels, stock dashed with hollow markers, offlink solid with filled ones, and the
stock/offlink ratio written beside each offlink point. Writes the PNG and an SVG beside it."""
import matplotlib

matplotlib.use("Agg")  # no display: files only
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator  # noqa: E402


def _plain(value, _pos=None):
    if value >= 1:
        return f"{value:g}"
    return f"{value:.3g}"


def plot(path, series, title, xlabel, ylabel):
    """series: (name, [(x, y), ...], dashed) in stock/offlink pairs; writes path and .svg."""
    fig, ax = plt.subplots(figsize=(10, 6), dpi=120)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    stock_points = {}
    for i, (name, points, dashed) in enumerate(series):
        colour = colours[(i // 2) % len(colours)]
        points = sorted(p for p in points if p[0] > 0 and p[1] > 0)
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        ax.plot(xs, ys, linestyle="--" if dashed else "-", marker="o", color=colour,
                markerfacecolor="white" if dashed else colour, linewidth=2, markersize=7,
                label=name)
        if dashed:
            stock_points = dict(points)
        else:
            for x, y in points:
                if x in stock_points:
                    ax.annotate(f"{stock_points[x] / y:.2f}x", (x, y), textcoords="offset points",
                                xytext=(6, -12), fontsize=8, color=colour)
    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        axis.set_major_formatter(FuncFormatter(_plain))
        axis.set_minor_formatter(FuncFormatter(lambda *_: ""))
    ax.grid(True, which="major", color="#c8c8c8")
    ax.grid(True, which="minor", color="#ececec")
    ax.set_title(title + "\n(labels: stock time / offlink time, above 1 = offlink faster)")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(loc="upper left", fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    fig.savefig(path.with_suffix(".svg"))
    plt.close(fig)
