"""A log-log line plot written as PNG with nothing but the standard library (zlib + struct), for
machines without matplotlib: decade grid, tick labels and a legend in a 5x7 bitmap font (capitals,
digits, a few signs), stock dashed with hollow markers, offlink solid with filled markers."""
import math
import struct
import zlib

FONT = {
    "0": "01110 10001 10011 10101 11001 10001 01110", "1": "00100 01100 00100 00100 00100 00100 01110",
    "2": "01110 10001 00001 00010 00100 01000 11111", "3": "11111 00010 00100 00010 00001 10001 01110",
    "4": "00010 00110 01010 10010 11111 00010 00010", "5": "11111 10000 11110 00001 00001 10001 01110",
    "6": "00110 01000 10000 11110 10001 10001 01110", "7": "11111 00001 00010 00100 01000 01000 01000",
    "8": "01110 10001 10001 01110 10001 10001 01110", "9": "01110 10001 10001 01111 00001 00010 01100",
    "A": "01110 10001 10001 11111 10001 10001 10001", "B": "11110 10001 10001 11110 10001 10001 11110",
    "C": "01110 10001 10000 10000 10000 10001 01110", "D": "11100 10010 10001 10001 10001 10010 11100",
    "E": "11111 10000 10000 11110 10000 10000 11111", "F": "11111 10000 10000 11110 10000 10000 10000",
    "G": "01110 10001 10000 10111 10001 10001 01111", "H": "10001 10001 10001 11111 10001 10001 10001",
    "I": "01110 00100 00100 00100 00100 00100 01110", "J": "00111 00010 00010 00010 00010 10010 01100",
    "K": "10001 10010 10100 11000 10100 10010 10001", "L": "10000 10000 10000 10000 10000 10000 11111",
    "M": "10001 11011 10101 10101 10001 10001 10001", "N": "10001 10001 11001 10101 10011 10001 10001",
    "O": "01110 10001 10001 10001 10001 10001 01110", "P": "11110 10001 10001 11110 10000 10000 10000",
    "Q": "01110 10001 10001 10001 10101 10010 01101", "R": "11110 10001 10001 11110 10100 10010 10001",
    "S": "01111 10000 10000 01110 00001 00001 11110", "T": "11111 00100 00100 00100 00100 00100 00100",
    "U": "10001 10001 10001 10001 10001 10001 01110", "V": "10001 10001 10001 10001 10001 01010 00100",
    "W": "10001 10001 10001 10101 10101 10101 01010", "X": "10001 10001 01010 00100 01010 10001 10001",
    "Y": "10001 10001 01010 00100 00100 00100 00100", "Z": "11111 00001 00010 00100 01000 10000 11111",
    ".": "00000 00000 00000 00000 00000 01100 01100", "-": "00000 00000 00000 11111 00000 00000 00000",
    "=": "00000 00000 11111 00000 11111 00000 00000", "(": "00010 00100 01000 01000 01000 00100 00010",
    ")": "01000 00100 00010 00010 00010 00100 01000", "/": "00001 00010 00010 00100 01000 01000 10000",
    ",": "00000 00000 00000 00000 01100 00100 01000", ":": "00000 01100 01100 00000 01100 01100 00000",
    "+": "00000 00100 00100 11111 00100 00100 00000", " ": "00000 00000 00000 00000 00000 00000 00000",
    "x": "00000 10001 01010 00100 01010 10001 00000",
}
COLOURS = [(31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189), (255, 127, 14),
           (140, 86, 75)]
WHITE, BLACK, GRID, MINOR = (255, 255, 255), (0, 0, 0), (200, 200, 200), (235, 235, 235)


class Canvas:
    def __init__(self, width, height):
        self.w, self.h = width, height
        self.px = bytearray(WHITE * (width * height))

    def dot(self, x, y, colour, size=1):
        for dy in range(size):
            for dx in range(size):
                xx, yy = int(x) + dx - size // 2, int(y) + dy - size // 2
                if 0 <= xx < self.w and 0 <= yy < self.h:
                    i = 3 * (yy * self.w + xx)
                    self.px[i:i + 3] = bytes(colour)

    def line(self, x0, y0, x1, y1, colour, size=1, dash=0):
        steps = int(max(abs(x1 - x0), abs(y1 - y0), 1))
        for s in range(steps + 1):
            if dash and (s // dash) % 2:
                continue
            t = s / steps
            self.dot(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, colour, size)

    def text(self, x, y, s, colour=BLACK, scale=2):
        for ch in s.upper():
            rows = FONT.get(ch, FONT[" "]).split()
            for r, bits in enumerate(rows):
                for c, bit in enumerate(bits):
                    if bit == "1":
                        for dy in range(scale):
                            for dx in range(scale):
                                self.dot(x + c * scale + dx, y + r * scale + dy, colour)
            x += 6 * scale

    def png(self):
        raw = b"".join(b"\x00" + bytes(self.px[3 * y * self.w:3 * (y + 1) * self.w])
                       for y in range(self.h))

        def chunk(kind, data):
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

        ihdr = struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9))
                + chunk(b"IEND", b""))


def text_width(s, scale=2):
    return 6 * scale * len(s)


def label(v):
    return f"{v:g}" if v >= 1 else f"{v:.3g}"


def plot(path, series, title, xlabel, ylabel, width=960, height=600):
    """series: list of (name, [(x, y), ...], dashed). Writes a log-log PNG to path."""
    pts = [p for _, ps, _ in series for p in ps if p[0] > 0 and p[1] > 0]
    if not pts:
        return
    lx0, lx1 = math.floor(math.log10(min(p[0] for p in pts))), math.ceil(
        math.log10(max(p[0] for p in pts)))
    ly0, ly1 = math.floor(math.log10(min(p[1] for p in pts))), math.ceil(
        math.log10(max(p[1] for p in pts)))
    lx1, ly1 = max(lx1, lx0 + 1), max(ly1, ly0 + 1)
    left, right, top, bottom = 90, 300, 60, 70
    pw, ph = width - left - right, height - top - bottom
    c = Canvas(width, height)
    fx = lambda x: left + (math.log10(x) - lx0) / (lx1 - lx0) * pw
    fy = lambda y: top + ph - (math.log10(y) - ly0) / (ly1 - ly0) * ph
    for d in range(lx0, lx1 + 1):
        for m in range(2, 10):
            if d < lx1:
                c.line(fx(m * 10.0 ** d), top, fx(m * 10.0 ** d), top + ph, MINOR)
        c.line(fx(10.0 ** d), top, fx(10.0 ** d), top + ph, GRID)
        s = label(10.0 ** d)
        c.text(fx(10.0 ** d) - text_width(s) / 2, top + ph + 10, s)
    for d in range(ly0, ly1 + 1):
        for m in range(2, 10):
            if d < ly1:
                c.line(left, fy(m * 10.0 ** d), left + pw, fy(m * 10.0 ** d), MINOR)
        c.line(left, fy(10.0 ** d), left + pw, fy(10.0 ** d), GRID)
        s = label(10.0 ** d)
        c.text(left - 8 - text_width(s), fy(10.0 ** d) - 7, s)
    c.line(left, top, left, top + ph, BLACK, 2)
    c.line(left, top + ph, left + pw, top + ph, BLACK, 2)
    c.text(left, 15, title)
    c.text(left, 36, ylabel)
    c.text(left + pw / 2 - text_width(xlabel) / 2, height - 30, xlabel)
    for i, (name, ps, dashed) in enumerate(series):
        colour = COLOURS[(i // 2) % len(COLOURS)] if len(series) > 1 else COLOURS[0]
        ps = sorted(p for p in ps if p[0] > 0 and p[1] > 0)
        for (x0, y0), (x1, y1) in zip(ps, ps[1:]):
            c.line(fx(x0), fy(y0), fx(x1), fy(y1), colour, 2, 6 if dashed else 0)
        for x, y in ps:
            c.dot(fx(x), fy(y), colour, 9)
            if dashed:
                c.dot(fx(x), fy(y), WHITE, 5)
        ly = top + 10 + 26 * i
        c.line(left + pw + 20, ly + 7, left + pw + 60, ly + 7, colour, 2, 6 if dashed else 0)
        c.dot(left + pw + 40, ly + 7, colour, 9)
        if dashed:
            c.dot(left + pw + 40, ly + 7, WHITE, 5)
        c.text(left + pw + 70, ly, name)
    with open(path, "wb") as f:
        f.write(c.png())
