"""Tests of check_includes.py on small trees: each kind of cycle is found, the shapes that are
not cycles are not (CTest include_cycles_selftest)."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_includes  # noqa: E402


def tree(files):
    root = tempfile.mkdtemp(prefix="check_includes_")
    os.makedirs(os.path.join(root, "src"))
    os.makedirs(os.path.join(root, "include"))
    for path, includes in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write("#pragma once\n" + "".join(f'#include "{i}"\n' for i in includes))
    return root


def run(root):
    p = subprocess.run([sys.executable, os.path.join(HERE, "check_includes.py"), root],
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


class CheckIncludes(unittest.TestCase):
    def test_clean_tree_passes(self):
        root = tree({"src/io/a.cpp": ["tilefit/io/a.hpp", "io/b.hpp", "vector"],
                     "include/tilefit/io/a.hpp": ["io/b.hpp"],
                     "src/io/b.hpp": [],
                     "src/io/b.cpp": ["b.hpp"]})
        self.assertEqual(run(root), (0, "", ""))

    def test_headers_including_each_other(self):
        root = tree({"src/x/a.hpp": ["x/b.hpp"], "src/x/b.hpp": ["a.hpp"]})
        rc, out, err = run(root)
        self.assertEqual(rc, 1)
        self.assertEqual(out.splitlines()[0], "src/x/a.hpp -> src/x/b.hpp -> src/x/a.hpp")
        self.assertIn("1 among files", err)

    def test_header_including_itself(self):
        root = tree({"src/x/a.hpp": ["a.hpp"]})
        rc, out, _ = run(root)
        self.assertEqual(rc, 1)
        self.assertEqual(out.splitlines()[0], "src/x/a.hpp -> src/x/a.hpp")

    def test_header_including_a_cpp(self):
        root = tree({"src/x/a.hpp": ["x/a_impl.cpp"], "src/x/a_impl.cpp": ["x/a.hpp"]})
        rc, out, _ = run(root)
        self.assertEqual(rc, 1)
        self.assertIn("src/x/a.hpp -> src/x/a_impl.cpp -> src/x/a.hpp", out)

    def test_sources_needing_each_others_headers(self):
        # The case: config_decoder.cpp includes config_reader.hpp and config_reader.cpp
        # includes config_decoder.hpp (a public header under include/tilefit/, a private one).
        root = tree({"include/tilefit/io/config_reader.hpp": [],
                     "src/io/config_reader.cpp": ["tilefit/io/config_reader.hpp", "io/config_decoder.hpp"],
                     "src/io/config_decoder.hpp": [],
                     "src/io/config_decoder.cpp": ["io/config_decoder.hpp", "tilefit/io/config_reader.hpp"]})
        rc, out, err = run(root)
        self.assertEqual(rc, 1)
        self.assertEqual(out.strip(),
                         "src/io/config_decoder.cpp -> include/tilefit/io/config_reader.hpp, "
                         "src/io/config_reader.cpp -> src/io/config_decoder.hpp")
        self.assertIn("0 among files, 1 among header/source units", err)

    def test_a_cpp_including_its_own_header_is_no_cycle(self):
        root = tree({"src/m/x.hpp": [], "src/m/x.cpp": ["m/x.hpp"],
                     "include/tilefit/m/y.hpp": [], "src/m/y.cpp": ["tilefit/m/y.hpp"]})
        self.assertEqual(run(root)[0], 0)

    def test_resolution_is_the_compilers(self):
        # "b.hpp" from src/x/a.hpp is src/x/b.hpp (the including file's folder) before src/b.hpp.
        root = tree({"src/x/a.hpp": ["b.hpp"], "src/x/b.hpp": [], "src/b.hpp": ["x/a.hpp"]})
        self.assertEqual(run(root)[0], 0)
        root = tree({"src/x/a.hpp": ["b.hpp"], "src/b.hpp": ["x/a.hpp"]})
        self.assertEqual(run(root)[0], 1)
        # Headers that are not in the tree (third-party, system) are no edges.
        root = tree({"src/x/a.hpp": ["nlohmann/json.hpp"]})
        self.assertEqual(run(root)[0], 0)

    def test_units(self):
        self.assertEqual(check_includes.unit_of("/r", "/r/include/tilefit/io/a.hpp"), "io/a")
        self.assertEqual(check_includes.unit_of("/r", "/r/src/io/a.cpp"), "io/a")
        self.assertEqual(check_includes.unit_of("/r", "/r/src/model/families/f.cpp"), "model/families/f")


if __name__ == "__main__":
    unittest.main()
