#!/usr/bin/env python3
"""The pictures as a person sees them (CTest svg_render).

Draws the two pictures of issue 21 with the built tilefit — the SM120 FINALIZE configs as budget
bars (`check --format svg`) and the README's MoE space on sm_90 and sm_120 as a map (`sweep
--format svg`) — and checks each, and every committed picture under docs/pictures/, parses as
XML (xml.etree), renders with rsvg-convert (librsvg2-bin) to PNG with nothing on stderr, and has
the expected colour at known cells and bars in the pixels (the PNG decoded here with zlib and
struct only).

    tests/render_svg_test.py BUILD_DIR/tilefit [--keep DIR]    (--keep: leave the PNGs in DIR)

Exit 77 (CTest: skipped) when rsvg-convert is not installed.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Colours the pictures must show (src/report/svg_style.hpp).
STAGE_6 = (0x22, 0x5E, 0xA8)       # kStageFill[5]: 6 stages fit
INVALID = (0x9E, 0x9E, 0x9E)       # kInvalidFill, under the cross
CROSS = (0x3A, 0x3A, 0x3A)         # kInvalidCross
HATCH = (0xD6, 0x27, 0x28)         # kNoFitHatch
WHITE = (0xFF, 0xFF, 0xFF)
COMPONENT_A = (0x4E, 0x79, 0xA7)   # kComponentFill[A]
COMPONENT_B = (0xA0, 0xCB, 0xE8)   # kComponentFill[B]
LIMIT = (0x11, 0x11, 0x11)         # kLimitLine

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def png_size(path):
    return struct.unpack(">II", open(path, "rb").read(24)[16:24])


def read_png(path, max_row=None):
    """(width, height, rows of (r, g, b, a)) of an 8-bit RGB or RGBA PNG, non-interlaced; only the
    rows up to max_row are decoded (each filter line depends on the one above)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, "unexpected PNG format %r" % (header,)
    bpp = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height if max_row is None else min(height, max_row + 1)):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if f == 2:  # up: no dependence within the line
            line = bytearray((u + v) & 0xFF for u, v in zip(line, prev))
        elif f != 0:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                if f == 1:
                    line[x] = (line[x] + a) & 0xFF
                elif f == 3:
                    line[x] = (line[x] + (a + b) // 2) & 0xFF
                elif f == 4:
                    c = prev[x - bpp] if x >= bpp else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(line)
        prev = line
    pixels = []
    for line in rows:
        row = []
        for x in range(width):
            px = line[x * bpp:(x + 1) * bpp]
            row.append((px[0], px[1], px[2], px[3] if bpp == 4 else 255))
        pixels.append(row)
    return width, height, pixels


def near(p, rgb, tol=10):
    return all(abs(p[k] - rgb[k]) <= tol for k in range(3))


def elements(root):
    """Every <rect> and <line> with its offset (the translate of enclosing groups) and title."""
    out = []

    def walk(node, dx, dy):
        t = node.get("transform", "")
        if t.startswith("translate("):
            x, y = t[len("translate("):-1].split(",")
            dx, dy = dx + float(x), dy + float(y)
        for child in node:
            tag = child.tag.replace(SVG, "")
            if tag in ("rect", "line"):
                title = child.find(SVG + "title")
                out.append((tag, child, dx, dy, title.text if title is not None else ""))
            if tag == "g":
                walk(child, dx, dy)

    walk(root, 0.0, 0.0)
    return out


def find_rect(items, title_prefix):
    for tag, el, dx, dy, title in items:
        if tag == "rect" and title.startswith(title_prefix):
            return (float(el.get("x")) + dx, float(el.get("y")) + dy, float(el.get("width")), float(el.get("height")))
    fail("no rect titled %r" % title_prefix)
    return None


def max_y(items, prefixes):
    """The lowest pixel row the checks look at."""
    ys = [float(el.get("y")) + dy + float(el.get("height")) for tag, el, dx, dy, t in items
          if tag == "rect" and any(t.startswith(p) for p in prefixes)]
    return max(ys) + 2 if ys else 0


def pixels_in(png, box):
    _, _, px = png
    x, y, w, h = box
    return [px[j][i] for j in range(int(y) + 1, int(y + h) - 1) for i in range(int(x) + 1, int(x + w) - 1)]


def expect_at(png, box, rgb, what, dx=3):
    if box is None:
        return
    x, y, w, h = box
    p = png[2][int(y + h / 2)][int(x + dx)]
    if not near(p, rgb):
        fail("%s: pixel (%d, %d) is %r, expected %r" % (what, x + dx, y + h / 2, p[:3], rgb))


def expect_some(png, box, rgb, what):
    if box is not None and not any(near(p, rgb, 24) for p in pixels_in(png, box)):
        fail("%s: no pixel near %r in %r" % (what, rgb, box))


def render(svg_path, png_path):
    try:
        ET.parse(svg_path)
    except ET.ParseError as e:
        fail("%s: not XML: %s" % (svg_path, e))
        return None
    r = subprocess.run(["rsvg-convert", "--format", "png", "-o", png_path, svg_path], capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        fail("%s: rsvg-convert exit %d, stderr %r" % (svg_path, r.returncode, r.stderr))
        return None
    root = ET.parse(svg_path).getroot()
    size = png_size(png_path)
    if size != (int(root.get("width")), int(root.get("height"))):
        fail("%s: rendered %dx%d, the SVG says %sx%s" % (svg_path, size[0], size[1], root.get("width"), root.get("height")))
    return png_path, elements(root)


def main():
    args = sys.argv[1:]
    keep = None
    if "--keep" in args:
        i = args.index("--keep")
        keep = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__)
        return 2
    tilefit = os.path.abspath(args[0])
    if shutil.which("rsvg-convert") is None:
        print("skipped: rsvg-convert not found (Debian: apt-get install librsvg2-bin)")
        return 77
    work = keep or tempfile.mkdtemp(prefix="tilefit_svg_")
    os.makedirs(work, exist_ok=True)

    def draw(name, argv):
        path = os.path.join(work, name + ".svg")
        with open(path, "wb") as out:
            r = subprocess.run([tilefit] + argv, cwd=ROOT, stdout=out, stderr=subprocess.PIPE)
        if r.returncode > 1 or r.stderr:
            fail("tilefit %s: exit %d, stderr %r" % (" ".join(argv), r.returncode, r.stderr))
        return path, os.path.join(work, name + ".png")

    # The map: the README's MoE space on sm_90 and sm_120.
    svg, png_path = draw("moe_map", ["sweep", "docs/pictures/moe_space.json", "--arch", "sm_90,sm_120", "--format", "svg"])
    got = render(svg, png_path)
    if got:
        png_file, items = got
        png = read_png(png_file, max_row=int(max_y(items, ["moe@0 sm_120 128x64x128:", "moe@0 sm_90 128x64x128:", "moe@54 sm_120 "])))
        cell = find_rect(items, "moe@0 sm_120 128x64x128: fits at 6 auto, max 6")
        expect_at(png, cell, STAGE_6, "6-stage cell")
        bad = find_rect(items, "moe@0 sm_90 128x64x128: INVALID")
        expect_at(png, bad, INVALID, "invalid cell")
        expect_some(png, bad, CROSS, "invalid cell's cross")
        story = find_rect(items, "moe@54 sm_120 128x256x128: DOES NOT FIT at 3 auto, max 2")
        expect_some(png, story, HATCH, "hatched cell's stripes")
        expect_some(png, story, WHITE, "hatched cell's white")
        if story and any(near(p, STAGE_6, 30) for p in pixels_in(png, story)):
            fail("the hatched cell shows a stage colour")

    # The budget bars: the SM120 FINALIZE configs.
    svg, png_path = draw("finalize_budget", ["check", "configs/sm120_moe_finalize.json", "--builtin", "--format", "svg"])
    got = render(svg, png_path)
    if got:
        png_file, items = got
        png = read_png(png_file, max_row=int(max_y(items, ["A: 24576 B", "over the limit by 1024 B"])) + 40)
        # The bar of the story's tile: its group's first segments, its over part and the limit line.
        group = [it for it in items if it[4] in ("A: 24576 B", "B: 49152 B", "over the limit by 1024 B")]
        a = find_rect(group, "A: 24576 B")
        expect_at(png, a, COMPONENT_A, "A segment")
        expect_at(png, find_rect(group, "B: 49152 B"), COMPONENT_B, "B segment", dx=20)
        over = find_rect(group, "over the limit by 1024 B")
        expect_some(png, over, HATCH, "the part over the limit")
        limits = [el for tag, el, dx, dy, t in items if tag == "line" and el.get("stroke") == "#111111"]
        if len(limits) < 6:
            fail("expected a limit line per bar, found %d" % len(limits))
        elif a:
            x = float(limits[2].get("x1"))
            p = png[2][int(a[1] + a[3] / 2)][int(round(x - 0.5))]
            if not near(p, LIMIT, 40):
                fail("limit line at x=%s: pixel %r" % (x, p[:3]))
        # The part over the limit lies right of the limit line.
        if over and limits and float(limits[2].get("x1")) > over[0] + 1:
            fail("over part starts left of the limit line")

    # Every committed picture renders cleanly too.
    pictures = os.path.join(ROOT, "docs", "pictures")
    for name in sorted(os.listdir(pictures)):
        if name.endswith(".svg"):
            render(os.path.join(pictures, name), os.path.join(work, "committed_" + name[:-4] + ".png"))

    if not keep:
        shutil.rmtree(work)
    print("%d failure(s)" % len(failures) if failures else "ok: pictures parse, render cleanly and show the expected colours")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
