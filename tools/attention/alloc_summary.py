# Prints, for dumped launches (the module after AllocateSharedMemoryNv, *.alloc.mlir), every op
# that got shared memory: op name, offset, the memdesc / tensor types. usage:
#   python3 alloc_summary.py DUMPDIR [ID ...]
import os, re, sys
OFF = re.compile(r"allocation\.offset = (\d+)")
OPN = re.compile(r"=\s*\"?([a-z_]+\.[a-z_]+)\"?|^\s*\"?([a-z_]+\.[a-z_]+)\"?")
TYP = re.compile(r"(!ttg\.memdesc<[^>]*>|tensor<[^>]*>)")
SH = re.compile(r'"?ttg\.shared"?\s*=\s*(\d+)')


def summary(path):
    text = open(path).read()
    out = []
    m = SH.search(text)
    out.append(f"shared={m.group(1) if m else '?'}")
    for line in text.splitlines():
        o = OFF.search(line)
        if not o:
            continue
        s = re.sub(r"\s*loc\(.*?\)\s*$", "", line.strip())
        op = OPN.search(s)
        name = (op.group(1) or op.group(2)) if op else "?"
        types = TYP.findall(s)
        out.append(f"  {name:28s} off={o.group(1):>7s} {' '.join(t[:90] for t in types[-2:])}")
    return out


if __name__ == "__main__":
    d = sys.argv[1]
    ids = sys.argv[2:]
    for f in sorted(os.listdir(d)):
        if not f.endswith(".alloc.mlir"):
            continue
        rid = f[: -len(".alloc.mlir")]
        if ids and rid not in ids:
            continue
        print(rid)
        print("\n".join(summary(os.path.join(d, f))))
