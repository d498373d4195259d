# -*- Python -*-
# Runs every GoogleTest binary of unittests/ as individual lit tests.

import os

import lit.formats

config.name = "LAYOUT-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.layout_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
