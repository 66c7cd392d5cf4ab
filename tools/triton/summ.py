# Summarise an allocated-IR dump: layouts, ttg.shared, and every op that got an allocation.offset.
import re, sys, glob, os
LOC = re.compile(r"\s*loc\([^()]*(\([^()]*\))?[^()]*\)")
def summ(path):
    out = []
    for line in open(path):
        s = line.strip()
        if s.startswith("#loc"): continue
        if s.startswith("#") and not s.startswith("#smem"):
            out.append("  " + s)
        elif s.startswith("module attributes"):
            m = re.search(r"ttg.shared = (\d+)", s); t = re.search(r"tensor_memory_size = (\d+)", s)
            out.append(f"  SHARED={m.group(1)} TMEM={t.group(1) if t else None}")
        elif "allocation.offset" in s:
            s = LOC.sub("", s)
            m = re.search(r"allocation.offset = (\d+)", s)
            op = re.search(r"(ttg|ttng|tt)\.[a-z_]+", s).group(0)
            ty = s.split(" : ")[-1]
            out.append(f"  off={m.group(1):>7} {op} : {ty[:200]}")
    return out
for p in sorted(glob.glob(sys.argv[1] + "/*.alloc.mlir")):
    print(os.path.basename(p).replace(".alloc.mlir", ""))
    print("\n".join(summ(p)))
