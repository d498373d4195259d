# A suite of one test that never ends, run by ../../time-limit.test.
import lit.formats

config.name = "hang"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".test"]
