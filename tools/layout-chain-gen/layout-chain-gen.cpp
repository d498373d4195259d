//===- layout-chain-gen.cpp - Differential test generator -----------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Writes an MLIR module that checks random descriptor chains on the CPU: for
// each chain, the evaluator's offset and validity of every in-bounds top
// coordinate go into a constant table, and a function walks every
// coordinate, computes `layout.offset` / `layout.valid` (and `layout.upper`
// of the offset for invertible chains) and counts the coordinates where the
// compiled code disagrees with the table. Each coordinate also makes an
// incremental coordinate (layout.make_coord), moves it by a random static
// and then a random dynamic step, and compares its offset and validity with
// the recomputed top index. `main` prints one line per chain
// with a mismatch and a final `checked N coordinates in C chains: M
// mismatches` line.
//
// With --dynamic-percent P, each length, stride and argument that may be a
// run-time value becomes one with probability P%: the chain is written with
// `?` and SSA operands loaded from a mutable global (so that nothing folds
// them), and the compiled code computes with them as symbols; the expected
// table is still the evaluator's at the static values.
//
// The formulas themselves are tested against closed forms in the unit
// tests; this test checks what the lowering adds: composing and simplifying
// affine maps, materializing the non-affine parts, canonicalization, and the
// LLVM pipeline.
//
//===----------------------------------------------------------------------===//

#include "layout/Testing/RandomChains.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir::layout;
using llvm::SmallVector;
using llvm::SmallVectorImpl;
namespace cl = llvm::cl;

static cl::opt<uint64_t> seed("seed", cl::desc("random seed"), cl::init(1));
static cl::opt<unsigned> count("count", cl::desc("number of chains"),
                               cl::init(100));
static cl::opt<unsigned>
    maxDepth("max-depth", cl::desc("stages on top of the base"), cl::init(6));
static cl::opt<unsigned> dynamicPercent(
    "dynamic-percent",
    cl::desc("percent of the lengths, strides and arguments that may be "
             "run-time values made run-time values"),
    cl::init(0));

/// `text` with every `%d` SSA name prefixed by `prefix`.
static std::string renameValues(const std::string &text,
                                const std::string &prefix) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 1 < text.size() && text[i + 1] == 'd') {
      out += "%" + prefix;
      ++i;
    }
    out += text[i];
  }
  return out;
}

/// `4x?x8`: the top lengths of `d` as a type spells them.
static std::string lengthsText(const Descriptor &d) {
  std::string lens;
  for (auto [i, l] : llvm::enumerate(d.getLengths()))
    lens += (i ? "x" : "") + (isDynamic(l) ? "?" : std::to_string(l));
  return lens;
}

/// Emits the coordinate check of one coordinate `idx` (comma-separated
/// SSA names): a coordinate made there, moved by the static `s1`, then by
/// the dynamic `s2`, must have the offset (where valid) and validity of
/// the recomputed top index after each move. Returns the i1 of a mismatch.
static std::string emitMoves(llvm::raw_ostream &os, const Descriptor &d,
                             const std::string &top, const std::string &type,
                             llvm::ArrayRef<std::string> idx,
                             llvm::ArrayRef<int64_t> s1,
                             llvm::ArrayRef<int64_t> s2) {
  int64_t hidden = d.getNumHiddenIndices();
  std::string lens = lengthsText(d);
  std::string ct =
      "!layout.coord<" + lens + ", " + std::to_string(hidden) + ">";
  auto join = [](llvm::ArrayRef<std::string> v) {
    std::string r;
    for (size_t i = 0; i < v.size(); ++i)
      r += (i ? ", " : "") + v[i];
    return r;
  };
  os << "    %mc = layout.make_coord " << top << "[" << join(idx)
     << "] : " << type << " -> " << ct << "\n";
  os << "    %m1 = layout.move_coord " << top << ", %mc by "
     << formatIntList(s1) << " : " << type << ", " << ct << "\n";
  std::vector<std::string> t1, dyn, t2;
  for (size_t k = 0; k < idx.size(); ++k) {
    std::string n = std::to_string(k);
    os << "    %ms1_" << n << " = arith.constant " << s1[k] << " : index\n"
       << "    %mt1_" << n << " = arith.addi " << idx[k] << ", %ms1_" << n
       << " : index\n"
       << "    %ms2_" << n << " = arith.constant " << s2[k] << " : index\n"
       << "    %mt2_" << n << " = arith.addi %mt1_" << n << ", %ms2_" << n
       << " : index\n";
    t1.push_back("%mt1_" + n);
    dyn.push_back("%ms2_" + n);
    t2.push_back("%mt2_" + n);
  }
  os << "    %m2 = layout.move_coord " << top << ", %m1[" << join(dyn)
     << "] : " << type << ", " << ct << "\n";
  std::string result;
  for (int step = 1; step <= 2; ++step) {
    std::string m = "%m" + std::to_string(step),
                p = "%mk" + std::to_string(step);
    const std::vector<std::string> &t = step == 1 ? t1 : t2;
    os << "    " << p << "o = layout.coord_offset " << top << ", " << m << " : "
       << type << ", " << ct << "\n"
       << "    " << p << "v = layout.coord_valid " << top << ", " << m << " : "
       << type << ", " << ct << "\n"
       << "    " << p << "eo = layout.offset " << top << "[" << join(t)
       << "] : " << type << "\n"
       << "    " << p << "ev = layout.valid " << top << "[" << join(t)
       << "] : " << type << "\n"
       << "    " << p << "vd = arith.xori " << p << "v, " << p << "ev : i1\n"
       << "    " << p << "od = arith.cmpi ne, " << p << "o, " << p
       << "eo : index\n"
       << "    " << p << "ob = arith.andi " << p << "od, " << p << "ev : i1\n"
       << "    " << p << "b = arith.ori " << p << "vd, " << p << "ob : i1\n";
    result = result.empty() ? p + "b" : result;
  }
  os << "    %mbad = arith.ori %mk1b, %mk2b : i1\n";
  return "%mbad";
}

static void emitChain(llvm::raw_ostream &os, unsigned id, const Descriptor &d,
                      std::mt19937_64 &rng) {
  int64_t n = chains::numCoordinates(d);
  unsigned rank = d.getRank();
  // The chain as compiled: with run-time values where chosen.
  SmallVector<int64_t> runTime;
  Descriptor compiled = chains::dynamize(d, rng, dynamicPercent, runTime);
  std::string top =
      "%c" + std::to_string(id) + "_d" + std::to_string(d.getStages().size());
  bool invertible = true;
  bool hasSunder = false;
  for (const Stage &stage : d.getStages())
    for (const StageEntry &e : stage)
      hasSunder |= e.transform.getKind() == TransformKind::Sunder;
  if (llvm::Error e = compiled.checkInvertible()) {
    llvm::consumeError(std::move(e));
    invertible = false;
  }

  // The expected table: offset, valid per coordinate.
  os << "memref.global \"private\" constant @expected" << id << " : memref<"
     << n << "x2xi64> = dense<[";
  bool first = true;
  chains::forEachCoordinate(d, [&](llvm::ArrayRef<int64_t> coord) {
    Evaluation ev = d.evaluate(coord);
    os << (first ? "" : ", ") << "[" << ev.offset << ", " << (ev.valid ? 1 : 0)
       << "]";
    first = false;
  });
  os << "]>\n";

  std::string type = "!layout.desc<" + lengthsText(compiled) + ">";

  if (!runTime.empty()) {
    os << "memref.global \"private\" @runtime" << id << " : memref<"
       << runTime.size() << "xi64> = dense<" << formatIntList(runTime) << ">\n";
  }

  os << "// chain " << id << (invertible ? " (invertible)" : "")
     << (runTime.empty() ? "" : " (run-time values)") << "\n";
  os << "func.func @chain" << id << "() -> i64 {\n";
  // The run-time values, loaded where nothing can fold them (named %dyn<n>,
  // which renameValues prefixes with each copy's name).
  std::string loads;
  if (!runTime.empty()) {
    std::string g = "memref<" + std::to_string(runTime.size()) + "xi64>";
    loads += "%dynbuf = memref.get_global @runtime" + std::to_string(id) +
             " : " + g + "\n";
    for (size_t k = 0; k < runTime.size(); ++k) {
      std::string n = std::to_string(k);
      loads += "%dynidx" + n + " = arith.constant " + n + " : index\n" +
               "%dyni" + n + " = memref.load %dynbuf[%dynidx" + n + "] : " + g +
               "\n" + "%dyn" + n + " = arith.index_cast %dyni" + n +
               " : i64 to index\n";
    }
  }
  // The chain twice: once for offset/valid/upper, which canonicalization
  // may rewrite, and once for the coordinates, whose chains it keeps.
  for (const char *prefix : {"c", "k"}) {
    std::string body =
        renameValues(loads + compiled.str(), prefix + std::to_string(id) + "_");
    os << "  ";
    for (char c : body) {
      os << c;
      if (c == '\n')
        os << "  ";
    }
    os << "\n";
  }
  std::string coordTop =
      "%k" + std::to_string(id) + "_d" + std::to_string(d.getStages().size());
  os << "  %exp = memref.get_global @expected" << id << " : memref<" << n
     << "x2xi64>\n"
     << "  %c0 = arith.constant 0 : index\n"
     << "  %c1 = arith.constant 1 : index\n"
     << "  %n = arith.constant " << n << " : index\n"
     << "  %zero = arith.constant 0 : i64\n"
     << "  %r = scf.for %f = %c0 to %n step %c1 iter_args(%acc = %zero) -> "
        "(i64) {\n";
  std::string idx;
  if (rank == 1) {
    idx = "%f";
  } else {
    os << "    %i:" << rank << " = affine.delinearize_index %f into (";
    for (unsigned i = 0; i < rank; ++i)
      os << (i ? ", " : "") << d.getLengths()[i];
    os << ") : ";
    for (unsigned i = 0; i < rank; ++i)
      os << (i ? ", " : "") << "index";
    os << "\n";
    for (unsigned i = 0; i < rank; ++i)
      idx += (i ? ", %i#" : "%i#") + std::to_string(i);
  }
  os << "    %o = layout.offset " << top << "[" << idx << "] : " << type << "\n"
     << "    %v = layout.valid " << top << "[" << idx << "] : " << type << "\n"
     << "    %eo = memref.load %exp[%f, %c0] : memref<" << n << "x2xi64>\n"
     << "    %ev = memref.load %exp[%f, %c1] : memref<" << n << "x2xi64>\n"
     << "    %o64 = arith.index_cast %o : index to i64\n"
     << "    %v64 = arith.extui %v : i1 to i64\n"
     << "    %vbad = arith.cmpi ne, %v64, %ev : i64\n"
     << "    %odiff = arith.cmpi ne, %o64, %eo : i64\n"
     << "    %obad = arith.andi %odiff, %v : i1\n"
     << "    %bad0 = arith.ori %vbad, %obad : i1\n";
  std::string bad = "%bad0";
  {
    // Incremental coordinates: moved by a static and a dynamic step.
    std::vector<std::string> idxNames;
    for (unsigned i = 0; i < rank; ++i)
      idxNames.push_back(rank == 1 ? "%f" : "%i#" + std::to_string(i));
    SmallVector<int64_t> s1, s2;
    std::uniform_int_distribution<int64_t> step(-3, 3);
    for (unsigned i = 0; i < rank; ++i) {
      s1.push_back(step(rng));
      s2.push_back(step(rng));
    }
    std::string moved =
        emitMoves(os, compiled, coordTop, type, idxNames, s1, s2);
    os << "    %badm = arith.ori " << bad << ", " << moved << " : i1\n";
    bad = "%badm";
  }
  if (invertible && !hasSunder) {
    // upper(offset) gives the coordinate back where it is valid.
    os << "    %u:" << rank << " = layout.upper " << top << "[%o] : " << type
       << "\n";
    for (unsigned i = 0; i < rank; ++i) {
      std::string coord = rank == 1 ? "%f" : "%i#" + std::to_string(i);
      os << "    %ud" << i << " = arith.cmpi ne, %u#" << i << ", " << coord
         << " : index\n"
         << "    %ub" << i << " = arith.andi %ud" << i << ", %v : i1\n"
         << "    %bad" << i + 1 << " = arith.ori " << bad << ", %ub" << i
         << " : i1\n";
      bad = "%bad" + std::to_string(i + 1);
    }
  } else if (invertible) {
    // Sunder's inverse picks the representative whose unselected pieces are
    // 0, so only the round trip is exact: upper(offset) is a valid
    // coordinate with the same offset.
    os << "    %u:" << rank << " = layout.upper " << top << "[%o] : " << type
       << "\n";
    std::string us;
    for (unsigned i = 0; i < rank; ++i)
      us += (i ? ", %u#" : "%u#") + std::to_string(i);
    os << "    %uo = layout.offset " << top << "[" << us << "] : " << type
       << "\n"
       << "    %uv = layout.valid " << top << "[" << us << "] : " << type
       << "\n"
       << "    %uod = arith.cmpi ne, %uo, %o : index\n"
       << "    %uvd = arith.xori %uv, %v : i1\n"
       << "    %ubad = arith.ori %uod, %uvd : i1\n"
       << "    %ubv = arith.andi %ubad, %v : i1\n"
       << "    %bad1 = arith.ori " << bad << ", %ubv : i1\n";
    bad = "%bad1";
  }
  os << "    %b64 = arith.extui " << bad << " : i1 to i64\n"
     << "    %next = arith.addi %acc, %b64 : i64\n"
     << "    scf.yield %next : i64\n"
     << "  }\n"
     << "  return %r : i64\n"
     << "}\n\n";
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv,
                              "layout-chain-gen: random descriptor chains "
                              "checked against the evaluator\n");
  std::mt19937_64 rng(seed);
  chains::RandomChainOptions options;
  options.maxDepth = maxDepth;
  llvm::raw_ostream &os = llvm::outs();
  os << "// Generated by layout-chain-gen --seed " << seed << " --count "
     << count << " --max-depth " << maxDepth << " --dynamic-percent "
     << dynamicPercent << "\n\n";
  int64_t total = 0;
  for (unsigned id = 0; id < count; ++id) {
    Descriptor d = chains::randomDescriptor(rng, options);
    total += chains::numCoordinates(d);
    emitChain(os, id, d, rng);
  }
  os << "func.func @main() {\n"
     << "  %zero = arith.constant 0 : i64\n";
  for (unsigned id = 0; id < count; ++id) {
    os << "  %m" << id << " = call @chain" << id << "() : () -> i64\n"
       << "  %bad" << id << " = arith.cmpi ne, %m" << id << ", %zero : i64\n"
       << "  scf.if %bad" << id << " {\n"
       << "    vector.print str \"MISMATCH in chain " << id << ": \"\n"
       << "    vector.print %m" << id << " : i64\n"
       << "  }\n";
  }
  os << "  %s0 = arith.constant 0 : i64\n";
  for (unsigned id = 0; id < count; ++id)
    os << "  %s" << id + 1 << " = arith.addi %s" << id << ", %m" << id
       << " : i64\n";
  os << "  vector.print str \"checked " << total << " coordinates in " << count
     << " chains: \"\n"
     << "  vector.print %s" << count << " : i64\n"
     << "  return\n}\n";
  return 0;
}
