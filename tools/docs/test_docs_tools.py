#!/usr/bin/env python3
"""Tests of the docs tools themselves (CTest docs_tools_selftest): the console-example matcher of
tests/docs_examples_test.py, the link checker's slugs and narrative rules, and the .def reader of
gen_reference.py."""
import importlib.util
import pathlib
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


examples = load("docs_examples_test", "tests/docs_examples_test.py")
links = load("check_links", "tools/docs/check_links.py")
gen = load("gen_reference", "tools/docs/gen_reference.py")


class Matcher(unittest.TestCase):
    def test_exact_lines(self):
        self.assertTrue(examples.matches(["a", "b"], ["a", "b"]))
        self.assertFalse(examples.matches(["a", "b"], ["a", "c"]))
        self.assertFalse(examples.matches(["a"], ["a", "b"]))  # an unshown line is a difference

    def test_ellipsis_line_matches_any_run_of_lines(self):
        self.assertTrue(examples.matches(["a", "...", "z"], ["a", "z"]))
        self.assertTrue(examples.matches(["a", "...", "z"], ["a", "b", "c", "z"]))
        self.assertFalse(examples.matches(["a", "...", "z"], ["a", "b", "y"]))
        self.assertTrue(examples.matches(["...", "x", "..."], ["p", "x", "q"]))

    def test_ellipsis_within_a_line(self):
        self.assertTrue(examples.matches(['name "abc..."'], ['name "abc..."']))
        self.assertTrue(examples.matches(["1 config...invalid"], ["1 config: 0 fit, 1 invalid"]))
        self.assertFalse(examples.matches(["1 config...invalid"], ["1 config: 1 fit"]))

    def test_commands_continuations_and_outputs(self):
        cmds = examples.commands(10, ["$ echo a |", ">   cat", "a", "$ # a comment", "$ true"])
        self.assertEqual([c[1] for c in cmds], ["echo a |\n  cat", "# a comment", "true"])
        self.assertEqual(cmds[0][2], ["a"])
        self.assertEqual([c[0] for c in cmds], [10, 13, 14])
        with self.assertRaises(ValueError):
            examples.commands(1, ["output before a command"])

    def test_blocks_of_a_page(self):
        with tempfile.TemporaryDirectory() as d:
            page = pathlib.Path(d) / "p.md"
            page.write_text("```text\n$ not run\n```\n- item\n\n  ```console\n  $ tilefit archs\n  x\n  ```\n")
            self.assertEqual(examples.console_blocks(page), [(7, ["$ tilefit archs", "x"])])


class Links(unittest.TestCase):
    def test_slugs_as_github_and_mkdocs(self):
        self.assertEqual(links.slug("Triton kernels and vLLM/SGLang tuned tables"),
                         "triton-kernels-and-vllmsglang-tuned-tables")
        self.assertEqual(links.slug("The GPU itself: `device` and `probe`"), "the-gpu-itself-device-and-probe")
        self.assertEqual(links.slug("Suggestions: the nearest thing that fits"),
                         "suggestions-the-nearest-thing-that-fits")

    def test_narratives_are_caught_outside_code(self):
        caught = lambda s: any(rx.search(s) for rx, _ in links.NARRATIVE)
        for s in ["blind run Z found", "runs C1 and C2", "(issue 19)", "vLLM #46721's case", "Issue #34"]:
            self.assertTrue(caught(s), s)
        for s in ["the run took 2 s", "a dry run", "CUDA 13.0", "cutlass_scaled_mm", "a #0 config"]:
            self.assertFalse(caught(s), s)
        self.assertEqual([l for _, l in links.prose_lines("a `run Z` b\n```\nissue 19\n```\n")], ["a `` b"])


class DefReader(unittest.TestCase):
    def test_entries_over_several_lines_are_joined(self):
        with tempfile.TemporaryDirectory() as d:
            f = pathlib.Path(d) / "x.def"
            f.write_text('// ---- t ----\nTILEFIT_DIAGNOSTIC(a_code, error, "k",\n'
                         '                   "first (part) " "second {k:B}")\n'
                         'TILEFIT_DIAGNOSTIC_PHRASED(b_code, info, "", fn)\n')
            got = [l for _, l in gen.def_lines(f)]
            self.assertEqual(len(got), 3)
            m = gen.ENTRY.match(got[1])
            self.assertEqual(m.group(2), "a_code")
            self.assertEqual("".join(gen.STRING.findall(m.group(5))), "first (part) second {k:B}")
            self.assertTrue(gen.ENTRY.match(got[2]).group(1))


if __name__ == "__main__":
    unittest.main()
