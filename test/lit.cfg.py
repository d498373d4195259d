# -*- Python -*-
# lit configuration of the layout-opt regression tests.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "LAYOUT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.layout_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "Unit", "Inputs"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(("%layout_obj_root", config.layout_obj_root))
# mlir-runner with the C runner utils (vector.print), as the issue spells it.
config.substitutions.append(
    ("%mlir_runner_utils",
     os.path.join(config.mlir_lib_dir, "libmlir_c_runner_utils.so")))
# Chains per seed of the differential test; the long run raises it
# (cmake --build build --target check-layout-differential-long).
config.substitutions.append(
    ("%differential_count", lit_config.params.get("differential_count", "100")))

# Programs of the random tile-program test; the long run raises it
# (cmake --build build --target check-layout-tile-programs-long).
config.substitutions.append(
    ("%tile_program_count", lit_config.params.get("tile_program_count", "300")))
config.substitutions.append(("%layout_tools_dir", config.layout_tools_dir))
config.substitutions.append(("%layout_version", config.layout_version))
config.substitutions.append(("%llvm_tools_dir", config.llvm_tools_dir))

tool_dirs = [config.layout_tools_dir, config.llvm_tools_dir]
tools = ["layout-opt", "layout-chain-gen", "layout-fuzz", "layout-lsp-server",
         "layout-reduce", "mlir-runner", "FileCheck", "not",
         "count", "llvm-readelf", "llvm-objdump"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# ptxas (CUDA) turns PTX into cubins; the cubin tests need it.
import shutil
if shutil.which("ptxas") or os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("ptxas")
config.substitutions.append(("%examples", os.path.join(os.path.dirname(__file__), "..", "examples")))
config.substitutions.append(("%python", config.python_executable))

# The Python package's tests need the package (scripts/sanitize.sh builds
# without it).
if os.path.isdir(os.path.join(config.layout_obj_root, "python", "layout_opt")):
    config.available_features.add("python-package")

# scripts/sanitize.sh sets the compiler flags the CMake package's consumer
# needs to link against instrumented libraries.
for var in ["CXXFLAGS", "LDFLAGS"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

# The Python package's compile cache (layout_opt/_code.py): one empty
# directory per lit run, in the build tree, never the user's
# ~/.cache/layout_opt.
_cache = os.path.join(config.layout_obj_root, "test", "layout_opt-cache")
shutil.rmtree(_cache, ignore_errors=True)
config.environment["LAYOUT_OPT_CACHE_DIR"] = _cache
