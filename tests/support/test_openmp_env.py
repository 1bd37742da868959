"""OpenMP's barrier waiting as ntt_cy loads libgomp (ntt_cy._support.openmp_env)."""
import json
import os
import subprocess
import sys

import pytest

from ntt_cy._support import openmp_env as _openmp_env
from ntt_cy._support.config import build_info

SETTINGS = _openmp_env.CALLER_SETTINGS


def import_in_child(env_overrides):
    """Import ntt_cy in a fresh interpreter; return what libgomp says it was loaded with
    (omp_display_env) and the environment before and after the import."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env.update(env_overrides)
    code = (
        "import ctypes, json, os, sys\n"
        "before = dict(os.environ)\n"
        "import ntt_cy\n"
        "from ntt_cy._support import openmp_env as _openmp_env\n"
        "print(json.dumps({'same_env': dict(os.environ) == before,\n"
        "                  'described': _openmp_env.described}))\n"
        "sys.stdout.flush()\n"
        "if ntt_cy._support.config.build_info().get('openmp'):\n"
        "    # the libgomp the kernels loaded: a wheel carries its own, under another name\n"
        "    path = next(line.split()[-1] for line in open('/proc/self/maps')\n"
        "                if os.path.basename(line.split()[-1]).startswith('libgomp'))\n"
        "    ctypes.CDLL(path).omp_display_env(1)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1]), proc.stderr


def test_short_spin_is_what_libgomp_loads_with_and_the_environment_is_restored():
    seen, display = import_in_child({})
    assert seen["same_env"]
    assert f"GOMP_SPINCOUNT={_openmp_env.SPIN_COUNT}" in seen["described"]
    if build_info().get("openmp"):
        assert f"GOMP_SPINCOUNT = '{_openmp_env.SPIN_COUNT}'" in display


@pytest.mark.parametrize("setting,spin", [({"OMP_WAIT_POLICY": "active"}, None),
                                          ({"OMP_WAIT_POLICY": "passive"}, "0"),
                                          ({"GOMP_SPINCOUNT": "250000"}, "250000")])
def test_the_callers_own_setting_is_left_alone(setting, spin):
    seen, display = import_in_child(setting)
    assert seen["same_env"]
    assert "from the environment" in seen["described"]
    assert ", ".join(f"{k}={v}" for k, v in setting.items()) in seen["described"]
    if build_info().get("openmp"):
        assert f"GOMP_SPINCOUNT = '{_openmp_env.SPIN_COUNT}'" not in display
        if spin is not None:
            assert f"GOMP_SPINCOUNT = '{spin}'" in display


def test_context_manager_sets_only_while_loading(monkeypatch):
    monkeypatch.setattr(_openmp_env, "described", _openmp_env.described)   # restored after
    for key in SETTINGS:
        monkeypatch.delenv(key, raising=False)
    with _openmp_env.short_spin_while_loading():
        assert os.environ["GOMP_SPINCOUNT"] == _openmp_env.SPIN_COUNT
    assert "GOMP_SPINCOUNT" not in os.environ
    monkeypatch.setenv("OMP_WAIT_POLICY", "passive")
    with _openmp_env.short_spin_while_loading():
        assert "GOMP_SPINCOUNT" not in os.environ
    assert "GOMP_SPINCOUNT" not in os.environ and os.environ["OMP_WAIT_POLICY"] == "passive"
