"""The type stubs (`shogi_lab/_native.pyi`) against the native module: every function and
`Position` method is in the stub with the parameters and defaults it really has, and
returns a value of the type the stub says (checked on a sample call)."""

import ast
import inspect
import pathlib
import typing

import pytest

import shogi_lab
import shogi_lab._native as native

STUB = pathlib.Path(shogi_lab.__file__).parent / "_native.pyi"
TREE = ast.parse(STUB.read_text(encoding="utf-8"))
NAMES: dict = {"Position": native.Position}
exec("from os import PathLike\nfrom typing import *", NAMES)

MATE1 = "8k/9/8P/9/9/9/9/9/9 b G 1"
WORLD = "RL RL R * * * * * * * * * * * * * * * * *"
KIF = "specs/records/sjis_hirate_times.kif"
# A sample call of each function and method.
CALLS = {
    "read_record": (KIF,),
    "write_record": ("startpos", ["7g7f"]),
    "tsume_solve": (MATE1,),
    "quantum_converge": (WORLD,),
    "quantum_probabilities": (WORLD,),
    "quantum_observe": (WORLD, 0, 1),
    "quantum_perft": (1,),
    "placement_count": ("RB",),
    "placement_first": ("RB",),
    "tsume_problems": (f"a\t{MATE1}\nb\tx y",),
    "read_text": ("specs/tsume/cases.sfen",),
    "shard_block": (0, 2, 5),
    "gen_positions": (2,),
    "gen_tsume": (1, 1),
    "gen_quantum": (2,),
    "gen_records": (2, "kif"),
    "Position.from_sfen": ("8k/8G/8P/9/9/9/9/9/K8 w - 1",),
    "Position.from_usi": ("startpos moves 7g7f",),
    "Position.from_record": (KIF,),
    "Position.play": ("7g7f",),
    "Position.perft": (1,),
    "Position.__setstate__": ("startpos",),
}


def conforms(value, tp) -> bool:
    if tp is typing.Any or tp is object:
        return True
    if tp is None or tp is type(None):
        return value is None
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Union:
        return any(conforms(value, a) for a in args)
    if origin is list:
        return isinstance(value, list) and all(conforms(v, args[0]) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(conforms(k, args[0]) and conforms(v, args[1]) for k, v in value.items())
    if origin is tuple:
        return isinstance(value, tuple) and len(value) == len(args) and all(map(conforms, value, args))
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, tp)


def stubbed():
    """(name, stub definition, the native object)."""
    for node in TREE.body:
        if isinstance(node, ast.FunctionDef):
            yield node.name, node, getattr(native, node.name)
        elif isinstance(node, ast.ClassDef) and node.name == "Position":
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and f.name != "__init__":
                    yield f"Position.{f.name}", f, getattr(native.Position, f.name)


STUBBED = list(stubbed())


def test_every_native_name_has_a_stub():
    names = {n for n, _, _ in STUBBED if "." not in n} | {"Position", "ShogiLabError", "__version__"}
    assert {n for n in dir(native) if not n.startswith("__")} | {"__version__"} == names
    methods = {n.split(".")[1] for n, _, _ in STUBBED if n.startswith("Position.")}
    public = {n for n in dir(native.Position) if not n.startswith("__") or n in ("__getstate__", "__setstate__")}
    assert public == methods


@pytest.mark.parametrize("name,stub,obj", STUBBED, ids=[n for n, _, _ in STUBBED])
def test_stub_signature_and_return_type(root, monkeypatch, name, stub, obj):
    monkeypatch.chdir(root)
    params = [a.arg for a in stub.args.args if a.arg != "self"]
    defaults = [ast.unparse(d) for d in stub.args.defaults]
    real = inspect.signature(obj).parameters.values()
    real = [p for p in real if p.name not in ("self", "$self", "slf")]
    assert params == [p.name for p in real]
    assert defaults == [repr(p.default) for p in real if p.default is not inspect.Parameter.empty]
    is_static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in stub.decorator_list)
    call = obj if (is_static or "." not in name) else getattr(native.Position(), name.split(".")[1])
    value = call(*CALLS.get(name, ()))
    want = eval(ast.unparse(stub.returns), NAMES)
    assert conforms(value, want), f"{name} returned {value!r:.300}, the stub says {ast.unparse(stub.returns)}"


def test_read_record_headers_are_a_list_natively_and_a_dict_in_the_package(root):
    # The native function returns the headers in file order as (key, value) pairs (as its
    # stub says); shogi_lab.read_record turns them into a dict (as its annotation says).
    path = str(root / KIF)
    assert isinstance(native.read_record(path)[2], list)
    assert typing.get_type_hints(shogi_lab.read_record)["return"] == typing.Tuple[str, typing.List[str], typing.Dict[str, str]]
    headers = shogi_lab.read_record(path)[2]
    assert isinstance(headers, dict) and list(headers.items()) == native.read_record(path)[2]


def test_the_package_passes_mypy(root, tmp_path):
    # The package and its stubs type-check (`mypy python/shogi_lab`, run by hand before):
    # a new parameter missing from `_native.pyi` fails here. Skipped where mypy is not installed.
    pytest.importorskip("mypy")
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache"),
                        str(root / "python" / "shogi_lab")], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
