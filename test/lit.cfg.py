# -*- Python -*-
# lit configuration of the layout-opt regression tests.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "LAYOUT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.layout_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "Unit"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(("%layout_obj_root", config.layout_obj_root))

tool_dirs = [config.layout_tools_dir, config.llvm_tools_dir]
tools = ["layout-opt", "mlir-runner", "FileCheck", "not", "count"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
